package io.redlock.faults;

/** One measured row of the guarantees table. */
record RowResult(String id, String fault, Expect expect, int overlaps, int tokenViolations, int staleRejected,
        long lostFenced, int acquisitions, long lostPlain, String explanation) {

    String mutualExclusion() {
        String observed = overlaps == 0 ? "held" : "violated (" + overlaps + " overlap" + (overlaps > 1 ? "s" : "")
                + ", detected)";
        return switch (expect) {
            case HOLDS, VIOLATED -> observed;
            case REPORTED -> observed + " (reported)";
        };
    }
}
