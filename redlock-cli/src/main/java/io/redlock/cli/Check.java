package io.redlock.cli;

/** One row of the doctor's report. */
record Check(String node, String check, Status status, String detail) {

    enum Status { OK, WARN, FAIL }

    static Check ok(String node, String check, String detail) {
        return new Check(node, check, Status.OK, detail);
    }

    static Check warn(String node, String check, String detail) {
        return new Check(node, check, Status.WARN, detail);
    }

    static Check fail(String node, String check, String detail) {
        return new Check(node, check, Status.FAIL, detail);
    }
}
