package io.redlock.cli;

/** Where perl is: Debian's essential perl-base, which {@code redlock run} uses to supervise its job. */
final class PerlBinary {

    static final String PATH = "/usr/bin/perl";

    private PerlBinary() {
    }
}
