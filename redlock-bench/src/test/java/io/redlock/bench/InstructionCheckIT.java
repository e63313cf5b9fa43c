package io.redlock.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The per-call instruction count on a node under callgrind: every pair of every kind, fenced and not, counted, and the
 * plain pair in flight.
 */
class InstructionCheckIT {

    @Test
    void everyPairIsCountedOnANodeUnderCallgrindBesideThePlainPair(@TempDir Path out) throws Exception {
        InstructionCheck.Result result = InstructionCheck.run(20, line -> { });

        int pairs = 1 + PairKinds.KINDS.size() + 1; // the plain pair, the kinds, the plain pair in flight
        assertThat(result.counts()).hasSize(2 * pairs);
        assertThat(result.counts().stream().filter(c -> c.pair().equals(InstructionCheck.IN_FLIGHT_PAIR)))
                .as("the plain pair in flight, fenced and not").hasSize(2);
        // a pair is at least a SET and a script on the node: thousands of instructions, whatever the machine
        assertThat(result.counts()).allSatisfy(c -> assertThat(c.perPair()).as(c.toString()).isGreaterThan(10_000));
        assertThat(result.counts().stream().filter(c -> c.pair().equals(PairKinds.PLAIN)))
                .allSatisfy(c -> assertThat(c.ratio()).isEqualTo(1.0));
        List<Long> plain = result.counts().stream().filter(c -> c.pair().equals(PairKinds.PLAIN))
                .map(InstructionCheck.Count::perPair).collect(Collectors.toList());
        assertThat(plain.get(0)).as("fenced pair against the pair without fencing").isGreaterThan(plain.get(1));

        Path file = ResultsFile.instructions(out, Environment.machine(), result);
        assertThat(Files.readString(file)).contains("| fenced | read |").contains("| none | permit |");
    }
}
