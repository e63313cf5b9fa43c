package io.redlock.cli;

import java.io.PrintWriter;
import java.io.StringWriter;

/** The command run in the test's own JVM, what it printed kept. */
final class InProcessCli {

    final StringWriter out = new StringWriter();
    final StringWriter err = new StringWriter();

    /** Runs {@code args}; returns the exit code. */
    int run(String... args) {
        return RedlockCli.execute(new PrintWriter(out, true), new PrintWriter(err, true), args);
    }
}
