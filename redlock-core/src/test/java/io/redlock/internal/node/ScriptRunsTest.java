package io.redlock.internal.node;

import static org.assertj.core.api.Assertions.assertThat;

import io.lettuce.core.cluster.SlotHash;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * How queued script runs are gathered into calls. Property: every run added goes out exactly once, runs of a server
 * in the order they were added, in calls of at most {@link ScriptBatch#MAX_CALLS}; for a Redis Cluster, the runs of
 * one slot in their order, each call of one slot.
 */
class ScriptRunsTest {

    private static final Script SCRIPT = Script.of("s", "return 1");

    @Test
    void aLoneRunGoesOutAloneWhenTheRunsEnd() {
        ScriptRuns runs = new ScriptRuns(false);
        ScriptCall call = call("a");
        assertThat(runs.add(call)).isNull();
        assertThat(runs.end()).containsExactly(List.of(call));
        assertThat(runs.end()).as("nothing open after the end").isEmpty();
    }

    @Test
    void runsOfAServerGoOutInTheirOrderInCallsOfAtMostTheMost() {
        ScriptRuns runs = new ScriptRuns(false);
        List<ScriptCall> added = IntStream.range(0, 2 * ScriptBatch.MAX_CALLS + 3).mapToObj(i -> call("k" + i))
                .toList();
        List<List<ScriptCall>> sent = new ArrayList<>();
        for (ScriptCall call : added) {
            List<ScriptCall> full = runs.add(call);
            if (full != null) {
                sent.add(full);
            }
        }
        sent.addAll(runs.end());
        assertThat(sent).extracting(List::size).containsExactly(ScriptBatch.MAX_CALLS, ScriptBatch.MAX_CALLS, 3);
        assertThat(sent.stream().flatMap(List::stream)).containsExactlyElementsOf(added);
    }

    @Test
    void runsOfAClusterGoOutBySlotEachSlotInItsOrder() {
        ScriptRuns runs = new ScriptRuns(true);
        List<ScriptCall> added = List.of(call("{a}1"), call("{b}1"), call("{a}2"), call("{b}2"), call("{a}3"));
        added.forEach(call -> assertThat(runs.add(call)).isNull());
        List<List<ScriptCall>> sent = runs.end();
        assertThat(sent).hasSize(2);
        for (List<ScriptCall> run : sent) {
            int slot = SlotHash.getSlot(run.get(0).keys()[0]);
            assertThat(run).allSatisfy(call -> assertThat(SlotHash.getSlot(call.keys()[0])).isEqualTo(slot));
            assertThat(run).isEqualTo(added.stream().filter(run::contains).toList());
        }
        assertThat(sent.stream().flatMap(List::stream)).containsExactlyInAnyOrderElementsOf(added);
    }

    private static ScriptCall call(String key) {
        return new ScriptCall(null, SCRIPT, new String[] {key}, new String[0], false);
    }
}
