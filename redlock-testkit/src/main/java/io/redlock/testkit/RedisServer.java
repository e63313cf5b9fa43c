package io.redlock.testkit;

import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One real {@code redis-server} child process on a free loopback port, with its own temporary directory. Started
 * with {@code --save "" --appendonly no} unless the extra arguments say otherwise (later arguments win).
 *
 * <p>Faults: {@link #kill()} (SIGKILL), {@link #restart()} (crash and come back at once, empty),
 * {@link #restartAfter(Duration)} (crash and come back later), {@link #pause()} / {@link #resume()} (SIGSTOP /
 * SIGCONT). The port stays the same across restarts, so clients reconnect. Thread-safe.
 */
public final class RedisServer implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(RedisServer.class);
    private static final String HOST = "127.0.0.1";
    private static final Duration START_TIMEOUT = Duration.ofSeconds(15);
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(5);
    private static final int PORT_ATTEMPTS = 5;

    private final List<String> extraArgs;
    private final String password;
    private final Path dir;
    private final boolean clockShift;

    private int port;
    private Process process;
    private boolean paused;
    private boolean closed;
    private CompletableFuture<Void> pendingRestart;

    private RedisServer(List<String> extraArgs, int port, boolean clockShift) {
        this.port = port;
        this.clockShift = clockShift;
        this.extraArgs = List.copyOf(extraArgs);
        int at = extraArgs.lastIndexOf("--requirepass");
        this.password = at >= 0 && at + 1 < extraArgs.size() ? extraArgs.get(at + 1) : null;
        try {
            this.dir = Files.createTempDirectory("redlock-redis-");
            Processes.deleteOnExit(dir);
        } catch (IOException e) {
            throw new IllegalStateException("cannot create a temp dir: " + e.getMessage(), e);
        }
    }

    /** The password this server requires, or null. */
    String password() {
        return password;
    }

    /** A builder for a server with extra arguments or a password. */
    public static Builder builder() {
        return new Builder();
    }

    /** Starts a new server with these extra arguments, e.g. {@code "--maxmemory-policy", "allkeys-lru"}. */
    public static RedisServer launch(String... extraArgs) {
        return builder().args(extraArgs).start();
    }

    /** Starts the process (if not running) and waits until it answers PING. */
    public synchronized RedisServer start() {
        if (closed) {
            throw new IllegalStateException("server is closed");
        }
        if (process != null && process.isAlive()) {
            return this;
        }
        boolean fixedPort = port != 0;
        IllegalStateException last = null;
        for (int attempt = 0; attempt < PORT_ATTEMPTS; attempt++) {
            int candidate = fixedPort ? port : freePort();
            try {
                launch(candidate);
                port = candidate;
                return this;
            } catch (PortInUse e) {
                last = new IllegalStateException("port " + candidate + " is in use", e);
                sleepQuietly(Duration.ofMillis(100L * (attempt + 1)));
            }
        }
        throw last;
    }

    private void launch(int candidate) throws PortInUse {
        RedisBinary binary = RedisBinary.get();
        List<String> command = new ArrayList<>(List.of(binary.path().toString(),
                "--port", Integer.toString(candidate), "--bind", HOST, "--dir", dir.toString(),
                "--save", "", "--appendonly", "no", "--daemonize", "no", "--logfile", ""));
        if (binary.majorVersion() >= 7) {
            command.addAll(List.of("--enable-debug-command", "local")); // for debugSleep(); off by default since 7
        }
        command.addAll(extraArgs);
        Path logFile = logFile();
        long logStart = sizeOf(logFile);
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
        while (System.nanoTime() - deadline < 0) {
            if (!started.isAlive()) {
                Processes.unregister(started);
                String output = tail(logFile);
                if (output.contains("Address already in use")) {
                    throw new PortInUse();
                }
                throw new IllegalStateException("redis-server exited with " + started.exitValue() + ": " + output);
            }
            // our process must say it is ready: another server (a node started in parallel on the same free port,
            // or another JVM's) may answer the PING while ours is still failing to bind
            if (loggedReady(logFile, logStart) && answersPing(candidate)) {
                process = started;
                paused = false;
                log.debug("redis-server pid {} ready on {}:{}", started.pid(), HOST, candidate);
                return;
            }
            sleepQuietly(Duration.ofMillis(5));
        }
        started.destroyForcibly();
        Processes.unregister(started);
        throw new IllegalStateException("redis-server did not answer within " + START_TIMEOUT + ": " + tail(logFile));
    }

    /** Graceful stop (SIGTERM, then SIGKILL after 5 s). */
    public synchronized void stop() {
        end(false);
    }

    /** SIGKILL: the process dies at once and, without persistence, forgets every key. */
    public synchronized void kill() {
        end(true);
    }

    private void end(boolean force) {
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

    /** Crash and immediate restart on the same port: the node comes back empty (SPEC R9's hazard). */
    public synchronized void restart() {
        kill();
        start();
    }

    /**
     * Crash now and restart on the same port after {@code downtime} (SPEC R9's delayed restart). The stage completes
     * when the server answers again.
     */
    public synchronized CompletableFuture<Void> restartAfter(Duration downtime) {
        kill();
        CompletableFuture<Void> restart = CompletableFuture.runAsync(() -> {
            synchronized (this) {
                if (!closed) {
                    start();
                }
            }
        }, CompletableFuture.delayedExecutor(downtime.toNanos(), TimeUnit.NANOSECONDS));
        pendingRestart = restart;
        return restart;
    }

    /** SIGSTOP: the process keeps its connections but answers nothing until {@link #resume()}. */
    public synchronized void pause() {
        requireRunning();
        Processes.signal(process, "STOP");
        paused = true;
    }

    /** SIGCONT after {@link #pause()}. */
    public synchronized void resume() {
        requireRunning();
        Processes.signal(process, "CONT");
        paused = false;
    }

    public synchronized boolean isRunning() {
        return process != null && process.isAlive();
    }

    public synchronized boolean isPaused() {
        return paused;
    }

    public synchronized long pid() {
        requireRunning();
        return process.pid();
    }

    public String host() {
        return HOST;
    }

    public synchronized int port() {
        return port;
    }

    /** {@code redis://127.0.0.1:port}, with the password if one was set. */
    public synchronized String uri() {
        return "redis://" + (password == null ? "" : ":" + password + "@") + HOST + ":" + port;
    }

    /** {@code host:port}. */
    public synchronized String address() {
        return HOST + ":" + port;
    }

    public Path dir() {
        return dir;
    }

    public Path logFile() {
        return dir.resolve("redis.log");
    }

    /**
     * Runs commands on this server over a fresh connection (closed afterwards), independently of the library under
     * test. Fails if the server is down or paused (5 s timeout).
     */
    public <T> T redis(Function<RedisCommands<String, String>, T> commands) {
        RedisURI.Builder uri = RedisURI.builder().withHost(HOST).withPort(port()).withTimeout(Duration.ofSeconds(5));
        if (password != null) {
            uri.withPassword(password.toCharArray());
        }
        try (StatefulRedisConnection<String, String> connection = TestkitClient.get().connect(uri.build())) {
            return commands.apply(connection.sync());
        }
    }

    /**
     * Shifts this server's wall clock to the real time plus {@code offset} (negative: back), at once and while it
     * runs: Redis expires keys by its wall clock, so a jump forward expires PX keys early. Needs a server built with
     * {@link Builder#clockShift()}. {@code Duration.ZERO} puts the clock right again.
     */
    public void shiftClock(Duration offset) {
        if (!clockShift) {
            throw new IllegalStateException("start the server with RedisServer.builder().clockShift() to shift its clock");
        }
        try {
            Path file = clockOffsetFile();
            Path tmp = dir.resolve("clock-offset.tmp");
            Files.writeString(tmp, Long.toString(offset.toMillis()));
            Files.move(tmp, file, java.nio.file.StandardCopyOption.ATOMIC_MOVE,
                    java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new IllegalStateException("cannot write the clock offset: " + e.getMessage(), e);
        }
    }

    private Path clockOffsetFile() {
        return dir.resolve("clock-offset");
    }

    /** {@code CLIENT PAUSE ms WRITE}: the node stops processing writes (and scripts that write) for {@code pause}. */
    public void pauseWrites(Duration pause) {
        redis(r -> r.dispatch(io.lettuce.core.protocol.CommandType.CLIENT,
                new io.lettuce.core.output.StatusOutput<>(io.lettuce.core.codec.StringCodec.UTF8),
                new io.lettuce.core.protocol.CommandArgs<>(io.lettuce.core.codec.StringCodec.UTF8).add("PAUSE")
                        .add(pause.toMillis()).add("WRITE")));
    }

    /**
     * {@code DEBUG SLEEP}: the node's only thread sleeps for {@code stall}, answering nothing. Returns at once; the
     * stage completes when the node is responsive again.
     */
    public CompletableFuture<Void> debugSleep(Duration stall) {
        String seconds = String.format(java.util.Locale.ROOT, "%.3f", stall.toMillis() / 1000.0);
        return CompletableFuture.runAsync(() -> redis(r -> r.dispatch(io.lettuce.core.protocol.CommandType.DEBUG,
                new io.lettuce.core.output.StatusOutput<>(io.lettuce.core.codec.StringCodec.UTF8),
                new io.lettuce.core.protocol.CommandArgs<>(io.lettuce.core.codec.StringCodec.UTF8).add("SLEEP")
                        .add(seconds))));
    }

    /** Caps memory with {@code maxmemory-policy allkeys-lru}: under pressure any key, lock keys included, is evicted. */
    public void evictAnyKeyAbove(long maxmemoryBytes) {
        redis(r -> {
            r.configSet("maxmemory-policy", "allkeys-lru");
            return r.configSet("maxmemory", Long.toString(maxmemoryBytes));
        });
    }

    /** {@code GET key} on this server. */
    public String get(String key) {
        return this.<String>redis(r -> r.get(key));
    }

    /** {@code PTTL key} on this server: -2 if absent, -1 if it has no expiry. */
    public long pttl(String key) {
        return this.<Long>redis(r -> r.pttl(key));
    }

    /** {@code PING} on this server. */
    public String ping() {
        return this.<String>redis(RedisCommands::ping);
    }

    /** Kills the process and deletes its directory. */
    @Override
    public synchronized void close() {
        closed = true;
        if (pendingRestart != null) {
            pendingRestart.cancel(false);
        }
        kill();
        Processes.deleteNow(dir);
    }

    @Override
    public String toString() {
        return "RedisServer[" + address() + (isPaused() ? ", paused" : isRunning() ? "" : ", down") + "]";
    }

    private void requireRunning() {
        if (process == null || !process.isAlive()) {
            throw new IllegalStateException("redis-server on port " + port + " is not running");
        }
    }

    static boolean answersPing(int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(HOST, port), 200);
            socket.setSoTimeout(500);
            OutputStream out = socket.getOutputStream();
            out.write("PING\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = socket.getInputStream();
            byte[] reply = new byte[64];
            int n = in.read(reply);
            if (n <= 0) {
                return false;
            }
            String text = new String(reply, 0, n, StandardCharsets.US_ASCII);
            // "+PONG", or an auth error from a password-protected server: both mean it serves requests
            return text.startsWith("+PONG") || text.startsWith("-NOAUTH") || text.startsWith("-ERR");
        } catch (IOException e) {
            return false;
        }
    }

    static int freePort() {
        try (ServerSocket socket = new ServerSocket()) {
            socket.setReuseAddress(false);
            socket.bind(new InetSocketAddress(HOST, 0));
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new IllegalStateException("no free port on " + HOST + ": " + e.getMessage(), e);
        }
    }

    private static long sizeOf(Path file) {
        try {
            return Files.exists(file) ? Files.size(file) : 0;
        } catch (IOException e) {
            return 0;
        }
    }

    /** True if the log, from byte {@code from} on (this launch's part), says the server accepts connections. */
    static boolean loggedReady(Path logFile, long from) {
        try (java.nio.channels.SeekableByteChannel channel = Files.newByteChannel(logFile)) {
            channel.position(from);
            String written = new String(java.nio.channels.Channels.newInputStream(channel).readAllBytes(),
                    StandardCharsets.UTF_8);
            return written.contains("Ready to accept connections");
        } catch (IOException e) {
            return false;
        }
    }

    static String tail(Path file) {
        try {
            List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 10), lines.size()));
        } catch (IOException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }

    private static void sleepQuietly(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while starting redis-server", e);
        }
    }

    private static final class PortInUse extends Exception {
        private static final long serialVersionUID = 1L;
    }

    /** Extra arguments and a password for a {@link RedisServer}. */
    public static final class Builder {
        private final List<String> args = new ArrayList<>();
        private int port;
        private boolean clockShift;

        private Builder() {
        }

        /**
         * Extra command-line arguments, e.g. {@code "--appendonly", "yes"}; they override the defaults. A
         * {@code --requirepass} here is picked up like {@link #password(String)}.
         */
        public Builder args(String... extra) {
            args.addAll(List.of(extra));
            return this;
        }

        /** Requires this password ({@code --requirepass}); {@link #uri()} then carries it. */
        public Builder password(String password) {
            args.add("--requirepass");
            args.add(password);
            return this;
        }

        /** A fixed port instead of a free one (fails to start if it is taken). */
        public Builder port(int port) {
            if (port < 1 || port > 65535) {
                throw new IllegalArgumentException("port must be in [1, 65535], was " + port);
            }
            this.port = port;
            return this;
        }

        /**
         * Starts the server with the clock-shift shim (LD_PRELOAD, built with gcc), so {@link #shiftClock(Duration)}
         * works. The clock starts unshifted.
         */
        public Builder clockShift() {
            this.clockShift = true;
            return this;
        }

        /** The server, not started yet. */
        public RedisServer build() {
            return new RedisServer(args, port, clockShift);
        }

        /** Builds and starts the server. */
        public RedisServer start() {
            return build().start();
        }
    }
}
