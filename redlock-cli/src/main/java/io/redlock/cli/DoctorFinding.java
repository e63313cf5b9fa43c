package io.redlock.cli;

/** One row of the doctor's report. */
record DoctorFinding(String node, String check, Status status, String detail) {

    enum Status { OK, WARN, FAIL }

    static DoctorFinding ok(String node, String check, String detail) {
        return new DoctorFinding(node, check, Status.OK, detail);
    }

    static DoctorFinding warn(String node, String check, String detail) {
        return new DoctorFinding(node, check, Status.WARN, detail);
    }

    static DoctorFinding fail(String node, String check, String detail) {
        return new DoctorFinding(node, check, Status.FAIL, detail);
    }
}
