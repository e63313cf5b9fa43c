package io.redlock.cli;

/**
 * Where library log lines go: off the terminal by default (the commands say what matters in their own lines), on
 * stderr with {@code --verbose}. The defaults are in simplelogger.properties; system properties override them, and
 * must be set before the first logger is made, which happens only once a command runs.
 */
final class Logging {

    private static final String PREFIX = "org.slf4j.simpleLogger.";

    private Logging() {
    }

    static void configure(boolean verbose) {
        if (verbose) {
            System.setProperty(PREFIX + "defaultLogLevel", "info");
            System.setProperty(PREFIX + "log.io.redlock", "debug");
            System.setProperty(PREFIX + "log.io.lettuce", "info");
            System.setProperty(PREFIX + "log.io.netty", "warn");
        }
    }
}
