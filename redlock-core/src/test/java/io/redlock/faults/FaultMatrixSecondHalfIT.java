package io.redlock.faults;

import java.util.List;

/** The second half of the fault matrix's rows, in the table's order: the build runs both halves at once. */
class FaultMatrixSecondHalfIT extends FaultMatrix {

    @Override
    List<FaultRow> part() {
        return positions(FaultRow.values().length / 2, FaultRow.values().length);
    }

    @Override
    boolean writesTable() {
        return false;
    }
}
