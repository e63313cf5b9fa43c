package io.redlock.faults;

/**
 * One measured row of the guarantees table.
 *
 * @param overlaps         overlapping critical sections found
 * @param pausedOverlaps   of those, the ones that began after a holder's validity ran out (a pause, not the lock)
 * @param windowOverlaps   overlapping validity windows found
 * @param fencedIncrements acknowledged fenced increments
 */
record RowResult(String id, String fault, Expect sectionsExpected, int overlaps, int pausedOverlaps,
        Expect windowsExpected,
        int windowOverlaps, int tokenViolations, int staleRejected, long lostFenced, int acquisitions,
        int acquireFailed, int acquireUnknown, long fencedIncrements, long lostPlain, String explanation) {

    String criticalSections() {
        if (sectionsExpected == Expect.HOLDS && overlaps > 0 && pausedOverlaps == overlaps) {
            return "held (" + overlaps + " overlap" + (overlaps > 1 ? "s" : "") + " after a paused holder's validity)";
        }
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
