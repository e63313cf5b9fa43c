package io.redlock.testkit;

import java.io.IOException;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * The child processes the testkit started, so a JVM shutdown (normal exit, SIGINT, SIGTERM) kills them all, and POSIX
 * signals for pausing them. Only processes started here are ever signalled.
 */
final class Processes {

    private static final Set<Process> LIVE = ConcurrentHashMap.newKeySet();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(Processes::killAll, "redlock-testkit-cleanup"));
    }

    private Processes() {
    }

    static void register(Process process) {
        LIVE.add(process);
    }

    static void unregister(Process process) {
        LIVE.remove(process);
    }

    private static void killAll() {
        for (Process process : LIVE) {
            process.destroyForcibly(); // SIGKILL also ends a SIGSTOPped process
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
