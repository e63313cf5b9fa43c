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
public final class Seams {

    private final Supplier<Scheduler> scheduler;
    private final Supplier<RandomGenerator> random;
    private final FaultHooks faultHooks;

    private Seams(Supplier<Scheduler> scheduler, Supplier<RandomGenerator> random, FaultHooks faultHooks) {
        this.scheduler = scheduler;
        this.random = random;
        this.faultHooks = faultHooks;
    }

    /** A scheduler thread per client, thread-local randomness, no fault hooks. */
    public static Seams defaults() {
        return new Seams(ThreadScheduler::new, ThreadLocalRandom::current, new FaultHooks());
    }

    /** These seams with {@code scheduler} instead; the client shuts it down when it closes. */
    public Seams scheduler(Scheduler scheduler) {
        return new Seams(() -> scheduler, random, faultHooks);
    }

    /** These seams drawing every random delay from {@code random} (called on the thread that draws). */
    public Seams random(Supplier<RandomGenerator> random) {
        return new Seams(scheduler, random, faultHooks);
    }

    /** These seams with {@code hooks} armed by the test. */
    public Seams faultHooks(FaultHooks hooks) {
        return new Seams(scheduler, random, hooks);
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
