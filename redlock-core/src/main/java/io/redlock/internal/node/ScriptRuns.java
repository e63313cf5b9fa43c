package io.redlock.internal.node;

import io.lettuce.core.cluster.SlotHash;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Gathers script runs queued one after the other into the batches {@link BatchedConnection} writes: all of them
 * (up to {@link ScriptBatch#MAX_CALLS}) for a server, one batch per hash slot for a Redis Cluster, where one script
 * call may only touch keys of one slot. Calls on the same keys always share a slot, so their order holds; calls of
 * different slots touch different keys and may go out in any order.
 */
final class ScriptRuns {

    private final boolean bySlot;
    private final Consumer<List<ScriptCall>> out;
    private List<ScriptCall> run;
    private Map<Integer, List<ScriptCall>> runsBySlot;

    ScriptRuns(boolean bySlot, Consumer<List<ScriptCall>> out) {
        this.bySlot = bySlot;
        this.out = out;
    }

    void add(ScriptCall call) {
        if (!bySlot) {
            if (run == null) {
                run = ScriptBatch.newRun();
            }
            run = added(run, call);
            return;
        }
        if (runsBySlot == null) {
            runsBySlot = new LinkedHashMap<>();
        }
        int slot = SlotHash.getSlot(call.keys()[0]);
        List<ScriptCall> slotRun = added(runsBySlot.computeIfAbsent(slot, s -> ScriptBatch.newRun()), call);
        if (slotRun == null) {
            runsBySlot.remove(slot);
        }
    }

    /** Adds {@code call}; a run that is full goes out, and null is returned in its place. */
    private List<ScriptCall> added(List<ScriptCall> to, ScriptCall call) {
        to.add(call);
        if (to.size() < ScriptBatch.MAX_CALLS) {
            return to;
        }
        out.accept(to);
        return null;
    }

    /** Sends every open run, in the order they were opened. */
    void end() {
        if (run != null) {
            out.accept(run);
            run = null;
        }
        if (runsBySlot != null && !runsBySlot.isEmpty()) {
            runsBySlot.values().forEach(out);
            runsBySlot.clear();
        }
    }
}
