package io.redlock.faults;

/**
 * One measured row of the guarantees table.
 *
 * @param overlaps         overlapping critical sections found
 * @param windowOverlaps   overlapping validity windows found
 * @param fencedIncrements acknowledged fenced increments
 */
record RowResult(String id, String fault, Expect sectionsExpected, int overlaps, Expect windowsExpected,
        int windowOverlaps, int tokenViolations, int staleRejected, long lostFenced, int acquisitions,
        int acquireFailed, int acquireUnknown, long fencedIncrements, long lostPlain, String explanation) {

    String criticalSections() {
        return describe(overlaps, sectionsExpected);
    }

    String validityWindows() {
        return describe(windowOverlaps, windowsExpected);
    }

    private static String describe(int overlaps, Expect expect) {
        String observed = overlaps == 0 ? "held" : "violated (" + overlaps + " overlap" + (overlaps > 1 ? "s" : "")
                + ", detected)";
        return switch (expect) {
            case HOLDS, VIOLATED -> observed;
            case REPORTED -> observed + " (reported)";
        };
    }
}
