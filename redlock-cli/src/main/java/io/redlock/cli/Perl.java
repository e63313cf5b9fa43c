package io.redlock.cli;

/** Where perl is: Debian's essential perl-base, which {@code redlock run} uses to supervise its job. */
final class Perl {

    static final String BINARY = "/usr/bin/perl";

    private Perl() {
    }
}
