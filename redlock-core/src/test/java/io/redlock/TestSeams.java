package io.redlock;

import io.redlock.internal.parts.FaultHooks;
import io.redlock.internal.parts.Seams;

/** Reaches the builder's package-private test seams from tests in other packages. */
public final class TestSeams {

    private TestSeams() {
    }

    /** {@code builder} with {@code seams}. */
    public static RedlockBuilder with(RedlockBuilder builder, Seams seams) {
        return builder.seams(seams);
    }

    /** {@code builder} with fault hooks the test arms. */
    public static RedlockBuilder with(RedlockBuilder builder, FaultHooks hooks) {
        return builder.seams(Seams.defaults().faultHooks(hooks));
    }
}
