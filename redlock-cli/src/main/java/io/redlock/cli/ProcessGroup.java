package io.redlock.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;

/**
 * A process group, seen through Linux's {@code /proc}: who is in it, and a signal to all of them at once. The
 * signal goes through {@code perl} (in every Debian system, as perl-base), because the JDK can signal single
 * processes only, and a group signal is the one that cannot miss a process forked in the meantime.
 */
final class ProcessGroup {

    private static final Path PROC = Path.of("/proc");

    private final long id;

    ProcessGroup(long id) {
        if (id <= 1) {
            throw new IllegalArgumentException("not a process group of a job: " + id);
        }
        this.id = id;
    }

    long id() {
        return id;
    }

    /** The live processes of the group (zombies, which have already exited, are left out). */
    Set<Long> members() {
        return members(id);
    }

    boolean isEmpty() {
        return members().isEmpty();
    }

    /** Sends {@code signal} ({@code TERM}, {@code INT}, {@code KILL}) to every process of the group. */
    void signal(String signal) {
        try {
            Process kill = PerlBinary.process("kill $ARGV[0], -$ARGV[1]", signal, Long.toString(id))
                    .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            kill.waitFor();
        } catch (IOException e) {
            throw new IllegalStateException("cannot signal process group " + id + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The live processes whose process group is {@code group}. */
    static Set<Long> members(long group) {
        Set<Long> members = new TreeSet<>();
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(PROC, "[0-9]*")) {
            for (Path entry : entries) {
                Stat stat = Stat.read(entry.resolve("stat"));
                if (stat != null && stat.group == group && stat.state != 'Z') {
                    members.add(Long.parseLong(entry.getFileName().toString()));
                }
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot list processes in " + PROC + ": " + e.getMessage(), e);
        }
        return members;
    }

    /** The process group of {@code pid}, or -1 if it is gone. */
    static long groupOf(long pid) {
        Stat stat = Stat.read(PROC.resolve(Long.toString(pid)).resolve("stat"));
        return stat == null || stat.state == 'Z' ? -1 : stat.group;
    }

    /** The fields of {@code /proc/PID/stat} we need: state (3rd) and process group (5th). */
    private record Stat(char state, long group) {

        static Stat read(Path file) {
            String line;
            try {
                line = Files.readString(file, StandardCharsets.ISO_8859_1);
            } catch (NoSuchFileException e) {
                return null; // exited since it was listed
            } catch (IOException e) {
                return null;
            }
            // "pid (comm) state ppid pgrp ...": comm may hold spaces and parentheses, so parse after the last ')'
            int close = line.lastIndexOf(')');
            if (close < 0) {
                return null;
            }
            String[] fields = line.substring(close + 2).split(" ", 4);
            return fields.length < 3 ? null : new Stat(fields[0].charAt(0), Long.parseLong(fields[2]));
        }
    }
}
