package io.redlock.histories;

import static org.quicktheories.generators.SourceDSL.integers;

import io.redlock.histories.LockCalls.Kind;
import org.quicktheories.core.Gen;

/**
 * One generated step of a {@link LockWorld} history: a call by one of its threads, a move of the rival, or a fault.
 * A step whose precondition does not hold when its turn comes (a shrunk history dropped what it needed, or a blocking
 * call would wait for ever) is skipped.
 */
record LockStep(Type type, int thread, Kind kind, boolean interrupt, HistoryNodes.Fault fault) implements Histories.Step<LockWorld> {

    /** What a step does, with how often it is drawn (out of 100). */
    enum Type {
        ACQUIRE(25), UNLOCK_OWNER(18), UNLOCK(5), INSPECT(5), NEW_CONDITION(2), OWNER_WRITES(8),
        RIVAL_ACQUIRES(9), RIVAL_RELEASES(6), RIVAL_WRITES(4),
        KEPT_LEASE_EXPIRES(8), FIXED_LEASE_RUNS_OUT(4), MINORITY_FAULT(6);

        final int weight;

        Type(int weight) {
            this.weight = weight;
        }
    }

    static Gen<LockStep> steps() {
        return integers().between(0, 99).zip(integers().between(0, 1), integers().between(0, Kind.values().length - 1),
                integers().between(0, 3), integers().between(0, HistoryNodes.Fault.values().length - 1),
                (roll, thread, kind, interrupt, fault) -> new LockStep(Histories.drawn(Type.values(), t -> t.weight,
                        roll), thread, Kind.values()[kind], interrupt == 3, HistoryNodes.Fault.values()[fault]));
    }

    @Override
    public boolean run(LockWorld w) throws Exception {
        Actor t = w.thread(thread);
        switch (type) {
            case ACQUIRE -> {
                if (kind.blocking && w.owner != t && (w.owner != null || w.rival != null)) {
                    return false; // would wait for ever: nobody else moves while it waits
                }
                LockCalls.acquire(w, t, kind, interrupt);
            }
            case UNLOCK_OWNER -> {
                if (w.owner == null) {
                    return false;
                }
                LockCalls.unlock(w, w.owner);
            }
            case UNLOCK -> LockCalls.unlock(w, t);
            case INSPECT -> LockCalls.inspect(w, t);
            case NEW_CONDITION -> LockCalls.newCondition(w, t);
            case OWNER_WRITES -> {
                return LockCalls.ownerWrites(w);
            }
            case RIVAL_ACQUIRES -> {
                return LockFaults.rivalAcquires(w);
            }
            case RIVAL_RELEASES -> {
                return LockFaults.rivalReleases(w);
            }
            case RIVAL_WRITES -> {
                return LockFaults.rivalWrites(w);
            }
            case KEPT_LEASE_EXPIRES -> {
                return LockFaults.keptLeaseExpires(w);
            }
            case FIXED_LEASE_RUNS_OUT -> {
                return LockFaults.fixedLeaseRunsOut(w);
            }
            case MINORITY_FAULT -> fault.on(w.bench);
        }
        return true;
    }

    @Override
    public String toString() {
        return switch (type) {
            case ACQUIRE -> "T" + (thread + 1) + " " + kind + (interrupt ? " (interrupted)" : "");
            case UNLOCK, INSPECT, NEW_CONDITION -> "T" + (thread + 1) + " " + type;
            case MINORITY_FAULT -> fault.toString();
            default -> type.toString();
        };
    }
}
