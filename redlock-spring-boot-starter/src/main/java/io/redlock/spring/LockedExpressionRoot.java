package io.redlock.spring;

import java.lang.reflect.Method;

/** The root object of a {@link Locked#resource()} expression: {@code method}, {@code methodName}, {@code args}, {@code target}, {@code targetClass}. */
public final class LockedExpressionRoot {

    private final Method method;
    private final Object[] args;
    private final Object target;
    private final Class<?> targetClass;

    LockedExpressionRoot(Method method, Object[] args, Object target, Class<?> targetClass) {
        this.method = method;
        this.args = args;
        this.target = target;
        this.targetClass = targetClass;
    }

    public Method getMethod() {
        return method;
    }

    public String getMethodName() {
        return method.getName();
    }

    public Object[] getArgs() {
        return args.clone();
    }

    public Object getTarget() {
        return target;
    }

    public Class<?> getTargetClass() {
        return targetClass;
    }
}
