package io.redlock.histories;

import static org.quicktheories.generators.SourceDSL.lists;

import io.redlock.Redlock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Generated histories of holds of every kind on one resource by three clients ({@link HoldStep}); {@link HoldWorld}
 * states the rules. {@value Histories#DEFAULT_EXAMPLES} histories of up to {@value #STEPS} steps by default;
 * {@code -DQT_EXAMPLES=N} runs N, and {@code -DQT_SEED=S} replays the seed a failure printed.
 */
class HoldHistoriesIT {

    static final int STEPS = 24;
    private static final int CLIENTS = 3;

    private static HistoryNodes bench;
    private static final List<Redlock> CLIENT_LIST = new ArrayList<>();
    private static final List<NodeFailures> FAILURES = new ArrayList<>();
    private static final AtomicInteger RESOURCES = new AtomicInteger();

    @BeforeAll
    static void start() {
        bench = new HistoryNodes();
        IntStream.range(0, CLIENTS).forEach(i -> {
            NodeFailures failures = new NodeFailures();
            FAILURES.add(failures);
            CLIENT_LIST.add(bench.client(failures));
        });
    }

    @AfterAll
    static void stop() {
        CLIENT_LIST.forEach(Redlock::close);
        if (bench != null) {
            bench.close();
        }
    }

    /** Every grant, refusal, extension and release is one the model allows; no key is left behind. */
    @Test
    void everyHoldOfEveryKindIsOneTheModelAllows() {
        Histories.check(lists().of(HoldStep.steps()).ofSizeBetween(1, STEPS), HoldHistoriesIT::run);
    }

    private static void run(List<HoldStep> steps) throws Exception {
        HoldWorld world = new HoldWorld(bench, CLIENT_LIST, FAILURES, "hold-" + RESOURCES.incrementAndGet());
        try {
            Histories.replay(world, steps, HoldWorld::checkExclusion, HoldWorld::unwind);
        } finally {
            world.releaseWhatIsLeft();
            bench.heal();
        }
    }
}
