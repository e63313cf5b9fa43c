package io.redlock.histories;

import static org.quicktheories.generators.SourceDSL.lists;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Generated histories of a {@link io.redlock.RedlockLock}: two threads of one client and a rival client, with faults
 * between the calls ({@link LockStep}); {@link LockCalls} states the rules every call is checked against and
 * {@link LockWorld} the model. {@value Histories#DEFAULT_EXAMPLES} histories of up to {@value #STEPS} steps by
 * default; {@code -DQT_EXAMPLES=N} runs N, and {@code -DQT_SEED=S} replays the seed a failure printed.
 */
class LockHistoriesIT {

    static final int STEPS = 24;

    private static HistoryNodes bench;
    private static LockWorld.Clients clients;
    private static final AtomicInteger RESOURCES = new AtomicInteger();

    @BeforeAll
    static void start() {
        bench = new HistoryNodes();
        clients = LockWorld.Clients.on(bench);
    }

    @AfterAll
    static void stop() {
        if (clients != null) {
            clients.close();
        }
        if (bench != null) {
            bench.close();
        }
    }

    /** Every call's result is one the model allows, no two leases are ever valid at once, no key is left behind. */
    @Test
    void everyCallOfTheLockIsOneTheModelAllows() {
        Histories.check(lists().of(LockStep.steps()).ofSizeBetween(1, STEPS), LockHistoriesIT::run);
    }

    private static void run(List<LockStep> steps) throws Exception {
        try (LockWorld world = new LockWorld(bench, clients, "lock-" + RESOURCES.incrementAndGet())) {
            Histories.replay(world, steps, LockWorld::checkExclusion, LockWorld::unwind);
        } finally {
            bench.heal();
        }
    }
}
