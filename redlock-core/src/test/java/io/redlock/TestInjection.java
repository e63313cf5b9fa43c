package io.redlock;

import io.redlock.internal.parts.FaultHooks;
import io.redlock.internal.parts.Injected;

/** Reaches the builder's package-private injection point (scheduler, random, fault hooks) from tests in other packages. */
public final class TestInjection {

    private TestInjection() {
    }

    /** {@code builder} with {@code injected}. */
    public static RedlockBuilder with(RedlockBuilder builder, Injected injected) {
        return builder.injected(injected);
    }

    /** {@code builder} with fault hooks the test arms. */
    public static RedlockBuilder with(RedlockBuilder builder, FaultHooks hooks) {
        return builder.injected(Injected.defaults().faultHooks(hooks));
    }
}
