package io.redlock.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Where perl is: Debian's essential perl-base, which {@code redlock run} and {@code redlock servers} use for the
 * watchers that outlive a redlock killed with -9; and their scripts, shipped in the jar.
 */
final class PerlBinary {

    static final String PATH = "/usr/bin/perl";

    private PerlBinary() {
    }

    /** One program of the perl scripts {@code names} beside this class in the jar, in that order. */
    static String script(String... names) {
        StringBuilder program = new StringBuilder();
        for (String name : names) {
            try (InputStream in = PerlBinary.class.getResourceAsStream(name)) {
                if (in == null) {
                    throw new IllegalStateException(name + " is missing from the redlock jar");
                }
                program.append(new String(in.readAllBytes(), StandardCharsets.UTF_8)).append('\n');
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return program.toString();
    }

    /** The command line that runs {@code program} ({@code perl -e}) with {@code args}; more may be added to it. */
    static List<String> command(String program, String... args) {
        List<String> command = new ArrayList<>(List.of(PATH, "-e", program));
        command.addAll(List.of(args));
        return command;
    }
}
