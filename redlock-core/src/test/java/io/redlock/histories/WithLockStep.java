package io.redlock.histories;

import static org.quicktheories.generators.SourceDSL.integers;

import org.quicktheories.core.Gen;

/**
 * One generated step of a {@link WithLockWorld} program: open a {@code withLock} frame (blocking, asynchronous or
 * reactive) on one of two resources, close the innermost frame, or act inside it. The steps after an {@code OPEN} up
 * to its {@code CLOSE} are that frame's work; frames left open close at the end.
 */
record WithLockStep(Op op, int resource, WithLockWorld.Api api, HistoryNodes.Fault fault) {

    /** What a step does, with how often it is drawn (out of 100). */
    enum Op {
        OPEN(28), CLOSE(18), WRITE(14), LOSE(12), RIVAL_TRIES(12), THROW(8), MINORITY_FAULT(8);

        final int weight;

        Op(int weight) {
            this.weight = weight;
        }
    }

    static Gen<WithLockStep> steps() {
        return integers().between(0, 99).zip(integers().between(0, 1),
                integers().between(0, WithLockWorld.Api.values().length - 1),
                integers().between(0, HistoryNodes.Fault.values().length - 1),
                (roll, resource, api, fault) -> new WithLockStep(Histories.drawn(Op.values(), o -> o.weight, roll),
                        resource, WithLockWorld.Api.values()[api], HistoryNodes.Fault.values()[fault]));
    }

    @Override
    public String toString() {
        return switch (op) {
            case OPEN -> "OPEN " + api + " r" + resource;
            case MINORITY_FAULT -> fault.toString();
            default -> op.toString();
        };
    }
}
