package io.redlock.internal.node;

import io.lettuce.core.cluster.SlotHash;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Gathers script runs queued one after the other into the batches {@link BatchedConnection} writes: all of them
 * (up to {@link ScriptBatch#MAX_CALLS}) for a server, one batch per hash slot for a Redis Cluster, where one script
 * call may only touch keys of one slot. Calls on the same keys always share a slot, so their order holds; calls of
 * different slots touch different keys and may go out in any order. A collection: it hands the runs that are ready
 * back to its caller, which writes them.
 */
final class ScriptRuns {

    private final boolean bySlot;
    /** The open run's call while it is the only one: a lone call needs no list of {@link ScriptBatch#MAX_CALLS}. */
    private ScriptCall lone;
    private List<ScriptCall> run;
    private Map<Integer, List<ScriptCall>> runsBySlot;

    ScriptRuns(boolean bySlot) {
        this.bySlot = bySlot;
    }

    /** Adds {@code call}; returns the run it filled, to be sent now, or null. */
    List<ScriptCall> add(ScriptCall call) {
        if (!bySlot) {
            if (run == null && lone == null) {
                lone = call;
                return null;
            }
            if (run == null) {
                run = ScriptBatch.newRun();
                run.add(lone);
                lone = null;
            }
            run.add(call);
            if (run.size() < ScriptBatch.MAX_CALLS) {
                return null;
            }
            List<ScriptCall> full = run;
            run = null;
            return full;
        }
        if (runsBySlot == null) {
            runsBySlot = new LinkedHashMap<>();
        }
        int slot = SlotHash.getSlot(call.keys()[0]);
        List<ScriptCall> slotRun = runsBySlot.computeIfAbsent(slot, s -> ScriptBatch.newRun());
        slotRun.add(call);
        if (slotRun.size() < ScriptBatch.MAX_CALLS) {
            return null;
        }
        runsBySlot.remove(slot);
        return slotRun;
    }

    /** Every open run, in the order they were opened, to be sent now; none open after. */
    List<List<ScriptCall>> end() {
        if (lone != null) {
            List<ScriptCall> one = List.of(lone);
            lone = null;
            return List.of(one);
        }
        if (run != null) {
            List<ScriptCall> open = run;
            run = null;
            return List.of(open);
        }
        if (runsBySlot == null || runsBySlot.isEmpty()) {
            return List.of();
        }
        List<List<ScriptCall>> open = List.copyOf(runsBySlot.values());
        runsBySlot.clear();
        return open;
    }
}
