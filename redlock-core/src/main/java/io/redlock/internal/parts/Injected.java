package io.redlock.internal.parts;

import io.redlock.internal.time.Scheduler;
import io.redlock.internal.time.ThreadScheduler;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Supplier;
import java.util.random.RandomGenerator;

/**
 * What a client takes from outside besides its configuration, so tests can control it: the scheduler of its timed
 * work, the random source of its retry delays and extension spread, and its fault hooks. Immutable; the defaults are a
 * thread of its own, {@link ThreadLocalRandom} and disarmed hooks.
 */
public final class Injected {

    private final Supplier<Scheduler> scheduler;
    private final Supplier<RandomGenerator> random;
    private final FaultHooks faultHooks;

    private Injected(Supplier<Scheduler> scheduler, Supplier<RandomGenerator> random, FaultHooks faultHooks) {
        this.scheduler = scheduler;
        this.random = random;
        this.faultHooks = faultHooks;
    }

    /** A scheduler thread per client, thread-local randomness, no fault hooks. */
    public static Injected defaults() {
        return new Injected(ThreadScheduler::new, ThreadLocalRandom::current, new FaultHooks());
    }

    /** This injection with {@code scheduler} instead; the client shuts it down when it closes. */
    public Injected scheduler(Scheduler scheduler) {
        return new Injected(() -> scheduler, random, faultHooks);
    }

    /** This injection drawing every random delay from {@code random} (called on the thread that draws). */
    public Injected random(Supplier<RandomGenerator> random) {
        return new Injected(scheduler, random, faultHooks);
    }

    /** This injection with {@code hooks} armed by the test. */
    public Injected faultHooks(FaultHooks hooks) {
        return new Injected(scheduler, random, hooks);
    }

    Scheduler newScheduler() {
        return scheduler.get();
    }

    RandomGenerator random() {
        return random.get();
    }

    FaultHooks faultHooks() {
        return faultHooks;
    }
}
