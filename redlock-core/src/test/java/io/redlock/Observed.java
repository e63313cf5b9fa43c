package io.redlock;

/** A client built and observed from its first call on: tests' shorthand for {@code build()} then {@code addObserver}. */
public final class Observed {

    private Observed() {
    }

    /** {@code builder}'s client with {@code observers} added, in order. */
    public static Redlock build(RedlockBuilder builder, RedlockObserver... observers) {
        Redlock redlock = builder.build();
        for (RedlockObserver observer : observers) {
            redlock.addObserver(observer);
        }
        return redlock;
    }
}
