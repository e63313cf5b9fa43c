package io.redlock.spring;

import io.redlock.LeaseWorkException;
import io.redlock.LockNotAcquiredException;
import io.redlock.LockOptions;
import java.lang.reflect.Method;
import java.lang.reflect.UndeclaredThrowableException;
import org.aopalliance.intercept.MethodInterceptor;
import org.aopalliance.intercept.MethodInvocation;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.aop.support.AopUtils;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.expression.BeanFactoryResolver;
import org.springframework.context.expression.MethodBasedEvaluationContext;
import org.springframework.core.DefaultParameterNameDiscoverer;
import org.springframework.core.ParameterNameDiscoverer;
import org.springframework.expression.EvaluationException;

/**
 * Runs {@link Locked @Locked} methods under {@link RedlockTemplate#withLock}: evaluates the resource over the
 * arguments, takes the lock with the annotation's options on top of the template's defaults, and proceeds with the
 * lease as {@link Leases#current()}. The template is looked up at the first call, not when the advisor is created.
 */
public class LockedMethodInterceptor implements MethodInterceptor {

    private static final Logger log = LoggerFactory.getLogger(LockedMethodInterceptor.class);

    private final LockedOperationSource operations;
    private final ObjectProvider<RedlockTemplate> template;
    private final BeanFactory beanFactory;
    private final ParameterNameDiscoverer parameterNames = new DefaultParameterNameDiscoverer();
    private final UnavailableWarnings unavailable = new UnavailableWarnings();

    LockedMethodInterceptor(LockedOperationSource operations, ObjectProvider<RedlockTemplate> template,
            BeanFactory beanFactory) {
        this.operations = operations;
        this.template = template;
        this.beanFactory = beanFactory;
    }

    @Override
    public Object invoke(MethodInvocation invocation) throws Throwable {
        Object target = invocation.getThis();
        Class<?> targetClass = target != null ? AopUtils.getTargetClass(target) : null;
        LockedOperation operation = operations.find(invocation.getMethod(), targetClass);
        if (operation == null) {
            return invocation.proceed();
        }
        RedlockTemplate redlock = template.getIfAvailable();
        if (redlock == null) {
            throw new IllegalStateException(operation.description() + " needs a RedlockTemplate bean; configure"
                    + " redlock.nodes (or redlock.single.address / redlock.sentinel.master-name), or define one");
        }
        String resource = resource(operation, invocation, target, targetClass);
        LockOptions options = operation.options(redlock.defaultOptions());
        Throwable[] thrown = new Throwable[1];
        boolean[] entered = new boolean[1];
        try {
            return redlock.withLock(resource, options, lease -> {
                entered[0] = true;
                try {
                    return invocation.proceed();
                } catch (Exception | Error e) {
                    thrown[0] = e;
                    throw e;
                } catch (Throwable t) {
                    thrown[0] = t;
                    throw new UndeclaredThrowableException(t);
                }
            });
        } catch (LockNotAcquiredException busy) {
            if (entered[0] || operation.onBusy() != OnBusy.SKIP) {
                throw busy;
            }
            if (!busy.nodesUnavailable()) {
                log.debug("{}: '{}' is held elsewhere, call skipped", operation.description(), resource);
            } else if (operation.onUnavailable() == OnUnavailable.FAIL) {
                throw busy;
            } else {
                unavailable.skipped(operation, resource);
            }
            return operation.skipped().get();
        } catch (LeaseWorkException | UndeclaredThrowableException e) {
            if (thrown[0] != null && e.getCause() == thrown[0]) {
                throw thrown[0]; // the method's own checked exception, unwrapped
            }
            throw e;
        }
    }

    private String resource(LockedOperation operation, MethodInvocation invocation, Object target,
            Class<?> targetClass) {
        Method method = operation.method();
        Object[] args = invocation.getArguments();
        MethodBasedEvaluationContext context = new MethodBasedEvaluationContext(
                new LockedExpressionRoot(method, args, target, targetClass), method, args, parameterNames);
        if (beanFactory != null) {
            context.setBeanResolver(new BeanFactoryResolver(beanFactory));
        }
        Object value;
        try {
            value = operation.resource().getValue(context);
        } catch (EvaluationException e) {
            throw new IllegalArgumentException(operation.description() + ": resource '" + operation.resourceText()
                    + "' could not be evaluated: " + e.getMessage(), e);
        }
        if (value == null || value.toString().isBlank()) {
            throw new IllegalArgumentException(operation.description() + ": resource '" + operation.resourceText()
                    + "' evaluated to " + (value == null ? "null" : "a blank name"));
        }
        return value.toString();
    }
}
