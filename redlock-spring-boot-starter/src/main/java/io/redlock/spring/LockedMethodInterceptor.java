package io.redlock.spring;

import io.redlock.LeaseWorkException;
import io.redlock.LockNotAcquiredException;
import io.redlock.LockOptions;
import io.redlock.LockTarget;
import java.lang.reflect.Method;
import java.lang.reflect.UndeclaredThrowableException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import org.aopalliance.intercept.MethodInterceptor;
import org.aopalliance.intercept.MethodInvocation;
import org.reactivestreams.Publisher;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.aop.support.AopUtils;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.expression.BeanFactoryResolver;
import org.springframework.context.expression.MethodBasedEvaluationContext;
import org.springframework.core.DefaultParameterNameDiscoverer;
import org.springframework.core.ParameterNameDiscoverer;
import reactor.core.publisher.Flux;

/**
 * Runs {@link Locked @Locked} methods under {@link RedlockTemplate#withLock}: evaluates the resources over the
 * arguments into the method's {@link LockTarget}, takes that lock with the annotation's options on top of the
 * template's defaults, and proceeds with the lease as {@link Leases#current()}. The template is looked up at the first
 * call, not when the advisor is created.
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
        LockTarget lock = operation.target().evaluate(context(operation, invocation, target, targetClass),
                operation.description());
        LockOptions options = operation.options(redlock.defaultOptions());
        return switch (operation.kind()) {
            case BLOCKING -> blocking(operation, redlock, lock, options, invocation);
            case COMPLETION_STAGE -> stage(operation, redlock, lock, options, invocation);
            case MONO -> reactive(operation, redlock, lock, options, invocation).singleOrEmpty();
            case FLUX -> reactive(operation, redlock, lock, options, invocation);
        };
    }

    private Object blocking(LockedOperation operation, RedlockTemplate redlock, LockTarget lock, LockOptions options,
            MethodInvocation invocation) throws Throwable {
        Throwable[] thrown = new Throwable[1];
        boolean[] entered = new boolean[1];
        try {
            return redlock.withLock(lock, options, lease -> {
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
            if (entered[0] || !skips(operation, lock, busy)) {
                throw busy;
            }
            return operation.skipped().get();
        } catch (LeaseWorkException | UndeclaredThrowableException e) {
            if (thrown[0] != null && e.getCause() == thrown[0]) {
                throw thrown[0]; // the method's own checked exception, unwrapped
            }
            throw e;
        }
    }

    /**
     * A method returning a {@code CompletionStage}: the lock is held until the stage completes. Cancelling the
     * returned future cancels the method's (when it is a {@code CompletableFuture}), which ends the hold.
     */
    private CompletableFuture<Object> stage(LockedOperation operation, RedlockTemplate redlock, LockTarget lock,
            LockOptions options, MethodInvocation invocation) {
        CompletableFuture<CompletableFuture<Object>> started = new CompletableFuture<>();
        CompletionStage<Object> locked = redlock.withLockAsync(lock, options, lease -> {
            @SuppressWarnings("unchecked")
            CompletionStage<Object> result = (CompletionStage<Object>) proceed(invocation);
            CompletableFuture<Object> work = result != null ? result.toCompletableFuture()
                    : CompletableFuture.completedFuture(null);
            started.complete(work);
            return work;
        });
        CompletableFuture<Object> outcome = locked.toCompletableFuture().exceptionallyCompose(failure -> {
            Throwable cause = failure instanceof CompletionException && failure.getCause() != null
                    ? failure.getCause() : failure;
            if (cause instanceof LockNotAcquiredException busy && skips(operation, lock, busy)) {
                return CompletableFuture.completedFuture(operation.skipped().get());
            }
            return CompletableFuture.failedFuture(cause);
        });
        outcome.whenComplete((value, failure) -> {
            if (outcome.isCancelled()) {
                started.thenAccept(work -> work.cancel(true)); // the caller gave up: end the work and the hold
            }
        });
        return outcome;
    }

    /** A method returning a {@code Mono}, {@code Flux} or {@code Publisher}: held until it terminates. */
    private Flux<Object> reactive(LockedOperation operation, RedlockTemplate redlock, LockTarget lock,
            LockOptions options, MethodInvocation invocation) {
        return redlock.withLockReactive(lock, options, lease -> {
            try {
                @SuppressWarnings("unchecked")
                Publisher<Object> result = (Publisher<Object>) proceed(invocation);
                return result != null ? result : Flux.empty();
            } catch (Exception e) {
                return Flux.error(e);
            }
        }).onErrorResume(LockNotAcquiredException.class, busy -> skips(operation, lock, busy) ? Flux.empty()
                : Flux.error(busy));
    }

    /** Calls the method; a {@code Throwable} that is not an {@code Exception} or {@code Error} is wrapped. */
    private static Object proceed(MethodInvocation invocation) throws Exception {
        try {
            return invocation.proceed();
        } catch (Exception | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new UndeclaredThrowableException(t);
        }
    }

    /**
     * Whether a call not acquired is skipped ({@code onBusy = SKIP}): a busy lock quietly; too few nodes answering
     * with a rate-limited WARN, unless {@code onUnavailable = FAIL}.
     */
    private boolean skips(LockedOperation operation, LockTarget lock, LockNotAcquiredException busy) {
        if (operation.onBusy() != OnBusy.SKIP) {
            return false;
        }
        if (!busy.nodesUnavailable()) {
            log.debug("{}: '{}' is held elsewhere, call skipped", operation.description(), lock.name());
            return true;
        }
        if (operation.onUnavailable() == OnUnavailable.FAIL) {
            return false;
        }
        unavailable.skipped(operation, lock.name());
        return true;
    }

    /** What the resource expressions of one call are evaluated in: the arguments, the root object, the beans. */
    private MethodBasedEvaluationContext context(LockedOperation operation, MethodInvocation invocation, Object target,
            Class<?> targetClass) {
        Method method = operation.method();
        Object[] args = invocation.getArguments();
        MethodBasedEvaluationContext context = new MethodBasedEvaluationContext(
                new LockedExpressionRoot(method, args, target, targetClass), method, args, parameterNames);
        if (beanFactory != null) {
            context.setBeanResolver(new BeanFactoryResolver(beanFactory));
        }
        return context;
    }
}
