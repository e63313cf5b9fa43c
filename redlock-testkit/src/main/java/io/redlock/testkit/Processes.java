package io.redlock.testkit;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The child processes the testkit started and their directories, so a JVM shutdown (normal exit, SIGINT, SIGTERM)
 * kills them all and deletes the directories; and POSIX signals for pausing them. Only processes started here are
 * ever signalled.
 */
final class Processes {

    private static final Set<Process> LIVE = ConcurrentHashMap.newKeySet();
    private static final Set<Path> DIRECTORIES = ConcurrentHashMap.newKeySet();
    /** Processes that stop cleanly on a signal of their own (a database server's fast shutdown) before SIGKILL. */
    private static final Map<Process, String> GRACEFUL = new ConcurrentHashMap<>();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(Processes::killAll, "redlock-testkit-cleanup"));
    }

    private Processes() {
    }

    static void register(Process process) {
        LIVE.add(process);
    }

    /**
     * Registers a process that the shutdown hook first asks to stop with {@code signal} (e.g. {@code INT}, a
     * PostgreSQL fast shutdown that leaves no shared memory behind), and kills only if it is still alive 2 s later.
     */
    static void registerGraceful(Process process, String signal) {
        GRACEFUL.put(process, signal);
        LIVE.add(process);
    }

    static void unregister(Process process) {
        GRACEFUL.remove(process);
        LIVE.remove(process);
    }

    /** Deletes {@code dir} at JVM shutdown unless {@link #deleteNow(Path)} did it first. */
    static void deleteOnExit(Path dir) {
        DIRECTORIES.add(dir);
    }

    /** Deletes {@code dir} and everything in it now. */
    static void deleteNow(Path dir) {
        DIRECTORIES.remove(dir);
        deleteTree(dir);
    }

    private static void killAll() {
        GRACEFUL.forEach((process, signal) -> {
            try {
                signal(process, "CONT"); // a stopped server cannot shut down
                signal(process, signal);
            } catch (IllegalStateException e) {
                // gone meanwhile: nothing to stop
            }
        });
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(2);
        for (Process process : GRACEFUL.keySet()) {
            try {
                process.waitFor(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        for (Process process : LIVE) {
            process.destroyForcibly(); // SIGKILL also ends a SIGSTOPped process
        }
        for (Process process : LIVE) {
            try {
                process.waitFor(2, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        DIRECTORIES.forEach(Processes::deleteTree);
    }

    private static void deleteTree(Path dir) {
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // already gone, or not ours to delete
        }
    }

    /** Sends {@code signal} (e.g. {@code STOP}, {@code CONT}) to a process this testkit started. */
    static void signal(Process process, String signal) {
        if (!LIVE.contains(process)) {
            throw new IllegalStateException("not a process started by the testkit: " + process.pid());
        }
        try {
            Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid()))
                    .redirectErrorStream(true).start();
            if (!kill.waitFor(5, TimeUnit.SECONDS) || kill.exitValue() != 0) {
                throw new IllegalStateException("kill -" + signal + " " + process.pid() + " failed: "
                        + new String(kill.getInputStream().readAllBytes()).trim());
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot run kill: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while signalling " + process.pid(), e);
        }
    }
}
