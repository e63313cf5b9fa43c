package io.redlock.internal.node;

import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.infra.Blackhole;

/** Deciding one 5-node round as {@link Round} does: a new tally, then three grants, the decision asked after each. */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class QuorumTallyBench {

    private int nodes = 5;

    @Benchmark
    public void fiveNodeRoundWonByThreeGrants(Blackhole decisions) {
        QuorumTally tally = new QuorumTally(nodes);
        for (int reply = 0; reply < 3; reply++) {
            tally.grant();
            decisions.consume(tally.decision());
        }
    }
}
