package io.redlock.histories;

import static org.quicktheories.generators.SourceDSL.lists;

import io.redlock.Redlock;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Generated programs of nested {@code withLock} frames, blocking, asynchronous and reactive ({@link WithLockStep});
 * {@link WithLockWorld} states the rules. {@value Histories#DEFAULT_EXAMPLES} programs of up to {@value #STEPS} steps
 * by default; {@code -DQT_EXAMPLES=N} runs N, and {@code -DQT_SEED=S} replays the seed a failure printed.
 */
class WithLockHistoriesIT {

    static final int STEPS = 20;

    private static HistoryNodes bench;
    private static Redlock mine;
    private static Redlock rival;
    private static final NodeFailures FAILURES = new NodeFailures();
    private static final ExecutorService BODIES = Executors.newCachedThreadPool(r -> {
        Thread thread = new Thread(r, "async-work");
        thread.setDaemon(true);
        return thread;
    });
    private static final AtomicInteger PROGRAMS = new AtomicInteger();

    @BeforeAll
    static void start() {
        bench = new HistoryNodes();
        mine = bench.client(FAILURES);
        rival = bench.client(new NodeFailures());
    }

    @AfterAll
    static void stop() {
        BODIES.shutdownNow();
        if (mine != null) {
            mine.close();
            rival.close();
        }
        if (bench != null) {
            bench.close();
        }
    }

    /** Every frame ends as the model says, the rival never gets a valid frame's resource, no key is left. */
    @Test
    void everyWithLockFrameEndsAsTheModelSays() {
        Histories.check(lists().of(WithLockStep.steps()).ofSizeBetween(1, STEPS), WithLockHistoriesIT::run);
    }

    private static void run(List<WithLockStep> steps) throws Exception {
        WithLockWorld world = new WithLockWorld(bench, mine, rival, FAILURES, BODIES,
                "frames-" + PROGRAMS.incrementAndGet());
        try {
            world.run(steps);
        } catch (AssertionError | RuntimeException e) {
            throw new AssertionError("after " + world.ran + ": " + e.getMessage(), e);
        } finally {
            Thread.interrupted();
            bench.heal();
        }
    }
}
