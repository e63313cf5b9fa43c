package io.redlock.faults;

import java.util.Arrays;
import java.util.List;

/**
 * The whole fault matrix in one JVM, the table written after its last row: what {@code -Pguarantees} runs to write
 * docs/GUARANTEES.md, and what runs some rows by hand ({@code -Dredlock.faults.rows}). The build runs the same rows
 * in two halves at once instead.
 */
class FaultMatrixIT extends FaultMatrix {

    @Override
    List<FaultRow> part() {
        return Arrays.asList(FaultRow.values());
    }

    @Override
    boolean writesTable() {
        return true;
    }
}
