package io.redlock.spring;

import org.springframework.aop.Advisor;
import org.springframework.aop.config.AopConfigUtils;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.config.ConfigurableBeanFactory;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.EnvironmentAware;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.context.annotation.ImportBeanDefinitionRegistrar;
import org.springframework.context.annotation.Role;
import org.springframework.core.Ordered;
import org.springframework.core.env.Environment;
import org.springframework.core.type.AnnotationMetadata;

/**
 * {@link Locked @Locked} methods through Spring AOP: an infrastructure advisor with {@link LockedMethodInterceptor}
 * (no AspectJ needed), and an auto-proxy creator if the application has none. Proxies classes (CGLIB) unless
 * {@code spring.aop.proxy-target-class=false}. Only when Spring AOP is on the class path.
 */
@AutoConfiguration(after = RedlockAutoConfiguration.class,
        afterName = "org.springframework.boot.autoconfigure.aop.AopAutoConfiguration")
@ConditionalOnClass({Advisor.class, org.aopalliance.intercept.MethodInterceptor.class})
@Role(BeanDefinition.ROLE_INFRASTRUCTURE)
@Import(RedlockLockedAutoConfiguration.AutoProxyRegistrar.class)
public class RedlockLockedAutoConfiguration {

    /**
     * Runs outside transactional, caching and other default-ordered advice, so the lock is held for the whole
     * transaction, commit included.
     */
    public static final int ORDER = Ordered.LOWEST_PRECEDENCE - 1000;

    @Bean
    @ConditionalOnMissingBean
    @Role(BeanDefinition.ROLE_INFRASTRUCTURE)
    public static LockedAdvisor redlockLockedAdvisor(ObjectProvider<RedlockTemplate> template,
            BeanFactory beanFactory) {
        LockedOperationSource operations = new LockedOperationSource(
                beanFactory instanceof ConfigurableBeanFactory configurable ? configurable : null);
        LockedAdvisor advisor = new LockedAdvisor(operations,
                new LockedMethodInterceptor(operations, template, beanFactory));
        advisor.setOrder(ORDER);
        return advisor;
    }

    /** Registers an infrastructure auto-proxy creator unless one is there (as {@code @EnableTransactionManagement}). */
    static class AutoProxyRegistrar implements ImportBeanDefinitionRegistrar, EnvironmentAware {

        private Environment environment;

        @Override
        public void setEnvironment(Environment environment) {
            this.environment = environment;
        }

        @Override
        public void registerBeanDefinitions(AnnotationMetadata metadata, BeanDefinitionRegistry registry) {
            AopConfigUtils.registerAutoProxyCreatorIfNecessary(registry);
            if (environment.getProperty("spring.aop.proxy-target-class", Boolean.class, true)) {
                AopConfigUtils.forceAutoProxyCreatorToUseClassProxying(registry);
            }
        }
    }
}
