package io.redlock.testkit;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The process of one database server ({@link SqlServer}): launched from a command line for a port, as the
 * unprivileged user, logging to a file in its directory; ready once its log says so and the port accepts a
 * connection; another free port if that one was taken; stopped by pid with the server's own shutdown signal (SIGKILL
 * after 10 s). One process at a time; the owning server calls it under its lock.
 */
final class SqlProcess {

    private static final Logger log = LoggerFactory.getLogger(SqlProcess.class);
    private static final Duration START_TIMEOUT = Duration.ofSeconds(30);
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(10);
    private static final int PORT_ATTEMPTS = 5;

    private final String name;
    private final Path logFile;
    private final IntFunction<List<String>> command;
    private final String ready;
    private final String stopSignal;

    private Process process;
    private boolean paused;

    /**
     * @param command    the command line for a port (run as the unprivileged user)
     * @param ready      the text of the log line that says the server accepts connections
     * @param stopSignal the signal of a clean, fast shutdown
     */
    SqlProcess(String name, Path logFile, IntFunction<List<String>> command, String ready, String stopSignal) {
        this.name = name;
        this.logFile = logFile;
        this.command = command;
        this.ready = ready;
        this.stopSignal = stopSignal;
    }

    /** Starts on {@code port}, or on a free one if it is 0 (another if that one is taken meanwhile); returns it. */
    int start(int port) {
        IllegalStateException last = null;
        for (int attempt = 0; attempt < PORT_ATTEMPTS; attempt++) {
            int candidate = port != 0 ? port : ServerProbes.freePort();
            try {
                launch(candidate);
                return candidate;
            } catch (PortInUse e) {
                last = new IllegalStateException(name + ": port " + candidate + " is in use", e);
            }
        }
        throw last;
    }

    private void launch(int port) throws PortInUse {
        long logStart = logFile.toFile().length();
        ProcessBuilder builder = new ProcessBuilder(ServerUser.command(command.apply(port))).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(logFile.toFile()));
        Process started;
        try {
            started = builder.start();
        } catch (IOException e) {
            throw new IllegalStateException("cannot start " + name + ": " + e.getMessage(), e);
        }
        Processes.registerGraceful(started, stopSignal);
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        while (System.nanoTime() - deadline < 0) {
            if (!started.isAlive()) {
                Processes.unregister(started);
                String output = logSince(logStart);
                if (output.contains("Address already in use")) {
                    throw new PortInUse();
                }
                throw new IllegalStateException(name + " exited with " + started.exitValue() + ": "
                        + ServerProbes.tail(logFile));
            }
            if (logSince(logStart).contains(ready) && accepts(port)) {
                process = started;
                paused = false;
                log.debug("{} pid {} ready on {}:{}", name, started.pid(), ServerProbes.HOST, port);
                return;
            }
            ServerProbes.sleepQuietly(Duration.ofMillis(20));
        }
        started.destroyForcibly();
        Processes.unregister(started);
        throw new IllegalStateException(name + " was not ready within " + START_TIMEOUT + ": "
                + ServerProbes.tail(logFile));
    }

    /** Ends the process, if any: its clean shutdown, or SIGKILL if {@code force} (or if it takes too long). */
    void end(boolean force) {
        if (process == null) {
            return;
        }
        Process p = process;
        try {
            if (force) {
                p.destroyForcibly();
            } else {
                if (paused) {
                    Processes.signal(p, "CONT");
                }
                Processes.signal(p, stopSignal);
            }
            if (!p.waitFor(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                p.destroyForcibly().waitFor(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            }
        } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
        } finally {
            Processes.unregister(p);
            process = null;
            paused = false;
        }
    }

    /** SIGSTOP ({@code true}) or SIGCONT ({@code false}). */
    void pause(boolean stop) {
        if (process == null) {
            throw new IllegalStateException(name + " is not running");
        }
        Processes.signal(process, stop ? "STOP" : "CONT");
        paused = stop;
    }

    boolean isRunning() {
        return process != null && process.isAlive();
    }

    boolean isPaused() {
        return paused;
    }

    long pid() {
        if (process == null) {
            throw new IllegalStateException(name + " is not running");
        }
        return process.pid();
    }

    private String logSince(long offset) {
        try (var channel = Files.newByteChannel(logFile)) {
            channel.position(offset);
            return new String(java.nio.channels.Channels.newInputStream(channel).readAllBytes(),
                    StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "";
        }
    }

    private static boolean accepts(int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(ServerProbes.HOST, port), 200);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** The port was taken by another process: {@link #start(int)} tries another. */
    private static final class PortInUse extends Exception {
        private static final long serialVersionUID = 1L;
    }
}
