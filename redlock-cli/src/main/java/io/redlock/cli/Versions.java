package io.redlock.cli;

/** Compares Redis version strings ("7.0.15", "10.0") by their numbers, not as text. */
final class Versions {

    private Versions() {
    }

    /** True if {@code version}'s major number is below {@code major}; false if the version cannot be read. */
    static boolean olderThan(String version, int major) {
        int parsed = major(version);
        return parsed >= 0 && parsed < major;
    }

    /** The leading number of a dotted version, or -1 if there is none. */
    static int major(String version) {
        if (version == null) {
            return -1;
        }
        int end = 0;
        while (end < version.length() && end < 9 && Character.isDigit(version.charAt(end))) {
            end++;
        }
        return end == 0 ? -1 : Integer.parseInt(version.substring(0, end));
    }
}
