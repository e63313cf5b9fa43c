package io.redlock.histories;

import static org.quicktheories.generators.SourceDSL.integers;

import io.redlock.histories.Hold.Kind;
import java.time.Duration;
import java.util.List;
import org.quicktheories.core.Gen;

/**
 * One generated step of a {@link HoldWorld} history: a client takes a hold of some kind, or does something with one of
 * its holds, or time passes, or a fault falls. A step with nothing to act on when its turn comes is skipped.
 */
record HoldStep(Type type, int client, Kind kind, int pick, HistoryNodes.Fault fault) implements Histories.Step<HoldWorld> {

    /** Minimum holds drawn for {@code RELEASE_AFTER}: from 1 ms to three per-node timeouts. */
    static final long[] KEEP_MILLIS = {1, 100, 300};

    /** What a step does, with how often it is drawn (out of 100). */
    enum Type {
        ACQUIRE_SHORT(20), ACQUIRE_LONG(18), RELEASE(16), RELEASE_AFTER(10), EXTEND(10), WRITE(10), TIME_PASSES(8),
        MINORITY_FAULT(8);

        final int weight;

        Type(int weight) {
            this.weight = weight;
        }
    }

    static Gen<HoldStep> steps() {
        return integers().between(0, 99).zip(integers().between(0, 2), integers().between(0, Kind.values().length - 1),
                integers().between(0, 5), integers().between(0, HistoryNodes.Fault.values().length - 1),
                (roll, client, kind, pick, fault) -> new HoldStep(Histories.drawn(Type.values(), t -> t.weight, roll),
                        client, Kind.values()[kind], pick, HistoryNodes.Fault.values()[fault]));
    }

    @Override
    public boolean run(HoldWorld w) throws Exception {
        List<Hold> mine = w.holds.stream().filter(h -> h.client == client && !h.released).toList();
        Hold hold = mine.isEmpty() ? null : mine.get(pick % mine.size());
        switch (type) {
            case ACQUIRE_SHORT -> w.acquire(client, kind, HoldWorld.SHORT);
            case ACQUIRE_LONG -> w.acquire(client, kind, HoldWorld.LONG);
            case RELEASE, RELEASE_AFTER, EXTEND, WRITE -> {
                if (hold == null || type == Type.RELEASE_AFTER && hold.lease == null
                        || type == Type.WRITE && !hold.kind.writes()) {
                    return false;
                }
                switch (type) {
                    case RELEASE -> w.release(hold);
                    case RELEASE_AFTER -> w.releaseAfter(hold, Duration.ofMillis(KEEP_MILLIS[pick % 3]));
                    case EXTEND -> w.extend(hold);
                    default -> w.write(hold);
                }
            }
            case TIME_PASSES -> Thread.sleep(HoldWorld.SHORT.plusMillis(100).toMillis());
            case MINORITY_FAULT -> fault.on(w.bench);
        }
        return true;
    }

    @Override
    public String toString() {
        return switch (type) {
            case ACQUIRE_SHORT, ACQUIRE_LONG -> "C" + client + " " + kind + (type == Type.ACQUIRE_SHORT ? " short"
                    : " long");
            case RELEASE, EXTEND, WRITE -> "C" + client + " " + type + " #" + pick;
            case RELEASE_AFTER -> "C" + client + " RELEASE_AFTER " + KEEP_MILLIS[pick % 3] + " ms #" + pick;
            case MINORITY_FAULT -> fault.toString();
            default -> type.toString();
        };
    }
}
