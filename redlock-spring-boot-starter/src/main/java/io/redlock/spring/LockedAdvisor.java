package io.redlock.spring;

import java.lang.reflect.Method;
import org.aopalliance.aop.Advice;
import org.springframework.aop.Pointcut;
import org.springframework.aop.support.AbstractPointcutAdvisor;
import org.springframework.aop.support.StaticMethodMatcherPointcut;

/** Applies {@link LockedMethodInterceptor} to every {@link Locked @Locked} method. */
public class LockedAdvisor extends AbstractPointcutAdvisor {

    private static final long serialVersionUID = 1L;

    private final transient LockedMethodInterceptor interceptor;
    private final transient Pointcut pointcut;

    LockedAdvisor(LockedOperationSource operations, LockedMethodInterceptor interceptor) {
        this.interceptor = interceptor;
        this.pointcut = new StaticMethodMatcherPointcut() {
            @Override
            public boolean matches(Method method, Class<?> targetClass) {
                return operations.find(method, targetClass) != null;
            }
        };
    }

    @Override
    public Pointcut getPointcut() {
        return pointcut;
    }

    @Override
    public Advice getAdvice() {
        return interceptor;
    }
}
