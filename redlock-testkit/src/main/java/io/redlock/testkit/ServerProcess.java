package io.redlock.testkit;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.IntSupplier;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@code redis-server} process of one {@link RedisServer}: its directory (log, clock offset), its command line,
 * its launch on a port until it is ready (another port if that one is taken), its signals and its end. One process
 * at a time; not thread-safe: the owning {@link RedisServer} calls it under its own lock.
 */
final class ServerProcess {

    private static final Logger log = LoggerFactory.getLogger(RedisServer.class);
    private static final Duration START_TIMEOUT = Duration.ofSeconds(15);
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(5);
    private static final int PORT_ATTEMPTS = 5;
    /** Logged (at notice level) once the server listens: proof that the process answering is the one started. */
    private static final String READY = "Ready to accept connections";

    private final List<String> extraArgs;
    private final List<String> wrapper;
    private final Path dir;
    private final boolean clockShift;
    private final Supplier<RedisBinary> binary;
    private final IntSupplier freePorts;

    private Process process;
    private boolean paused;

    /**
     * A process to come, in a new temporary directory; {@code freePorts} gives the ports to try when none is fixed;
     * {@code wrapper}, the command it runs under (empty: none).
     */
    ServerProcess(List<String> extraArgs, List<String> wrapper, boolean clockShift, Supplier<RedisBinary> binary,
            IntSupplier freePorts) {
        rejectHiddenLog(extraArgs);
        this.extraArgs = List.copyOf(extraArgs);
        this.wrapper = List.copyOf(wrapper);
        this.clockShift = clockShift;
        this.binary = binary;
        this.freePorts = freePorts;
        try {
            this.dir = Files.createTempDirectory("redlock-redis-");
            Processes.deleteOnExit(dir);
        } catch (IOException e) {
            throw new IllegalStateException("cannot create a temp dir: " + e.getMessage(), e);
        }
    }

    /** The password the command line requires (the last {@code --requirepass}), or null. */
    String password() {
        int at = extraArgs.lastIndexOf("--requirepass");
        return at >= 0 && at + 1 < extraArgs.size() ? extraArgs.get(at + 1) : null;
    }

    /** {@link #launch(int)} reads the server's log (stdout, notice level) to know it is ready: it must stay there. */
    private static void rejectHiddenLog(List<String> args) {
        for (int i = 0; i < args.size(); i++) {
            String arg = args.get(i);
            String value = i + 1 < args.size() ? args.get(i + 1) : "";
            boolean quiet = arg.equals("--loglevel") && (value.equals("warning") || value.equals("nothing"));
            if (arg.equals("--logfile") || quiet) {
                throw new IllegalArgumentException("the testkit reads the server's log on stdout at notice level to "
                        + "know it is ready; remove " + arg + " " + value);
            }
        }
    }

    /**
     * Starts the process on {@code port}, or on a free port if it is 0 (another one if another process takes it
     * meanwhile), and waits until it is ready.
     *
     * @return the port it listens on
     */
    int start(int port) {
        boolean fixedPort = port != 0;
        IllegalStateException last = null;
        for (int attempt = 0; attempt < PORT_ATTEMPTS; attempt++) {
            int candidate = fixedPort ? port : freePorts.getAsInt();
            try {
                launch(candidate);
                return candidate;
            } catch (PortInUse e) {
                last = new IllegalStateException("port " + candidate + " is in use", e);
                ServerProbes.sleepQuietly(Duration.ofMillis(100L * (attempt + 1)));
            }
        }
        throw last;
    }

    /**
     * Starts the process on {@code port} and waits until it logs that it is ready and answers PING.
     *
     * @throws PortInUse if the server exited because another process holds the port
     */
    private void launch(int port) throws PortInUse {
        RedisBinary redis = binary.get();
        List<String> command = new ArrayList<>(wrapper);
        command.addAll(List.of(redis.path().toString(),
                "--port", Integer.toString(port), "--bind", ServerProbes.HOST, "--dir", dir.toString(),
                "--save", "", "--appendonly", "no", "--daemonize", "no", "--logfile", ""));
        if (redis.majorVersion() >= 7) {
            command.addAll(List.of("--enable-debug-command", "local")); // for debugSleep(); off by default since 7
        }
        command.addAll(extraArgs);
        Path logFile = logFile();
        long logStart = logFile.toFile().length(); // 0 if absent; restarts append to the same log
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(logFile.toFile()));
        if (clockShift) {
            builder.environment().put("LD_PRELOAD", ClockShim.library().toString());
            builder.environment().put(ClockShim.OFFSET_FILE_ENV, clockOffsetFile().toString());
        }
        Process started;
        try {
            started = builder.start();
        } catch (IOException e) {
            throw new IllegalStateException("cannot start redis-server: " + e.getMessage(), e);
        }
        Processes.register(started);
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        String ready = started.pid() + ":"; // its lines start "pid:role"
        while (System.nanoTime() - deadline < 0) {
            if (!started.isAlive()) {
                Processes.unregister(started);
                String output = ServerProbes.tail(logFile);
                if (output.contains("Address already in use")) {
                    throw new PortInUse();
                }
                throw new IllegalStateException("redis-server exited with " + started.exitValue() + ": " + output);
            }
            // its own "ready" log line first: a PONG alone may come from whoever holds the port in a clash
            if (ServerProbes.logHasLine(logFile, logStart, ready, READY) && ServerProbes.answersPing(port)) {
                process = started;
                paused = false;
                log.debug("redis-server pid {} ready on {}:{}", started.pid(), ServerProbes.HOST, port);
                return;
            }
            ServerProbes.sleepQuietly(Duration.ofMillis(5));
        }
        started.destroyForcibly();
        Processes.unregister(started);
        throw new IllegalStateException("redis-server did not answer within " + START_TIMEOUT + ": "
                + ServerProbes.tail(logFile));
    }

    /** Ends the process, if any: SIGKILL if {@code force}, else SIGTERM (SIGKILL after 5 s). */
    void end(boolean force) {
        if (process == null) {
            return;
        }
        Process p = process;
        if (paused && !force) {
            Processes.signal(p, "CONT");
        }
        if (force) {
            p.destroyForcibly();
        } else {
            p.destroy();
        }
        try {
            if (!p.waitFor(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                p.destroyForcibly().waitFor(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            }
        } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
        }
        Processes.unregister(p);
        process = null;
        paused = false;
    }

    /** SIGSTOP ({@code true}) or SIGCONT ({@code false}) to the running process. */
    void pause(boolean stop) {
        Processes.signal(process, stop ? "STOP" : "CONT");
        paused = stop;
    }

    boolean isRunning() {
        return process != null && process.isAlive();
    }

    boolean isPaused() {
        return paused;
    }

    /** The running process's pid; callers check {@link #isRunning()} first. */
    long pid() {
        return process.pid();
    }

    Path dir() {
        return dir;
    }

    Path logFile() {
        return dir.resolve("redis.log");
    }

    /** Moves the wall clock the shim gives the process (see {@link RedisServer#shiftClock(Duration)}). */
    void shiftClock(Duration offset) {
        if (!clockShift) {
            throw new IllegalStateException("start the server with RedisServer.builder().clockShift() to shift its clock");
        }
        try {
            Path tmp = dir.resolve("clock-offset.tmp");
            Files.writeString(tmp, Long.toString(offset.toMillis()));
            Files.move(tmp, clockOffsetFile(), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new IllegalStateException("cannot write the clock offset: " + e.getMessage(), e);
        }
    }

    private Path clockOffsetFile() {
        return dir.resolve("clock-offset");
    }

    /** The port was taken by another process: {@link #start(int)} tries another. */
    private static final class PortInUse extends Exception {
        private static final long serialVersionUID = 1L;
    }
}
