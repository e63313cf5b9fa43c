package io.redlock.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * Where perl is: Debian's essential perl-base, which {@code redlock run} and {@code redlock servers} use for the
 * watchers that outlive a redlock killed with -9; and their scripts, shipped in the jar.
 */
final class PerlBinary {

    static final String PATH = "/usr/bin/perl";

    private PerlBinary() {
    }

    /** The text of the perl script {@code name} beside this class in the jar. */
    static String script(String name) {
        try (InputStream in = PerlBinary.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException(name + " is missing from the redlock jar");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
