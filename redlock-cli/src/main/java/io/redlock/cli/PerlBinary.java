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
    /** The variable that carries a program to perl's loader, which deletes it. */
    static final String PROGRAM = "REDLOCK_PERL_PROGRAM";
    private static final String LOADER = "my $program = delete $ENV{" + PROGRAM + "}; eval $program; die $@ if $@;";

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

    /**
     * A process that runs {@code program} with the arguments {@code args} (more may be added to its command). The
     * program is handed over in the variable {@link #PROGRAM}, which a short loader on the command line takes out of
     * the environment before it runs it: {@code ps} never shows the program, nor does a job started by it inherit it.
     */
    static ProcessBuilder process(String program, String... args) {
        List<String> command = new ArrayList<>(List.of(PATH, "-e", LOADER));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().put(PROGRAM, program);
        return builder;
    }
}
