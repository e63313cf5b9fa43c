package io.redlock.faults;

import java.util.List;

/** The first half of the fault matrix's rows, in the table's order: the build runs both halves at once. */
class FaultMatrixFirstHalfIT extends FaultMatrix {

    @Override
    List<FaultRow> part() {
        return positions(0, FaultRow.values().length / 2);
    }

    @Override
    boolean writesTable() {
        return false;
    }
}
