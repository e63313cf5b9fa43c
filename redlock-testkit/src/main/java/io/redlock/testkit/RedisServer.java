package io.redlock.testkit;

import io.lettuce.core.api.sync.RedisCommands;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * One real {@code redis-server} child process on a free loopback port, with its own temporary directory. Started
 * with {@code --save "" --appendonly no} unless the extra arguments say otherwise (later arguments win). It counts as
 * started once its own process logs that it is ready and the port answers PING; a port taken by another process
 * (the server exits with "Address already in use") is retried on another free port.
 *
 * <p>Faults: {@link #kill()} (SIGKILL), {@link #restart()} (crash and come back at once, empty),
 * {@link #restartAfter(Duration)} (crash and come back later), {@link #pause()} / {@link #resume()} (SIGSTOP /
 * SIGCONT). The port stays the same across restarts, so clients reconnect. Thread-safe.
 */
public final class RedisServer implements AutoCloseable {

    private final String password;
    private final ServerProcess process; // guarded by this

    private int port;
    private boolean closed;
    private CompletableFuture<Void> pendingRestart;

    RedisServer(RedisServerBuilder builder) {
        this.process = new ServerProcess(builder.args, builder.wrapper, builder.clockShift, builder.binary,
                builder.freePorts);
        this.password = process.password();
        this.port = builder.port;
    }

    /** The password this server requires, or null. */
    String password() {
        return password;
    }

    /** A builder for a server with extra arguments or a password. */
    public static RedisServerBuilder builder() {
        return new RedisServerBuilder();
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
        if (!process.isRunning()) {
            port = process.start(port); // a free port the first time, unless one was fixed; the same one after that
        }
        return this;
    }

    /** Graceful stop (SIGTERM, then SIGKILL after 5 s). */
    public synchronized void stop() {
        process.end(false);
    }

    /** SIGKILL: the process dies at once and, without persistence, forgets every key. */
    public synchronized void kill() {
        process.end(true);
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
        process.pause(true);
    }

    /** SIGCONT after {@link #pause()}. */
    public synchronized void resume() {
        requireRunning();
        process.pause(false);
    }

    public synchronized boolean isRunning() {
        return process.isRunning();
    }

    public synchronized boolean isPaused() {
        return process.isPaused();
    }

    public synchronized long pid() {
        requireRunning();
        return process.pid();
    }

    public String host() {
        return ServerProbes.HOST;
    }

    public synchronized int port() {
        return port;
    }

    /** {@code redis://127.0.0.1:port}, with the password if one was set. */
    public synchronized String uri() {
        return "redis://" + (password == null ? "" : ":" + password + "@") + ServerProbes.HOST + ":" + port;
    }

    /** {@code host:port}. */
    public synchronized String address() {
        return ServerProbes.HOST + ":" + port;
    }

    public Path dir() {
        return process.dir();
    }

    public Path logFile() {
        return process.logFile();
    }

    /**
     * Runs commands on this server over a fresh connection (closed afterwards), independently of the library under
     * test. Fails if the server is down or paused (5 s timeout).
     */
    public <T> T redis(Function<RedisCommands<String, String>, T> commands) {
        return ServerCommands.run(port(), password, commands);
    }

    /**
     * Shifts this server's wall clock to the real time plus {@code offset} (negative: back), at once and while it
     * runs: Redis expires keys by its wall clock, so a jump forward expires PX keys early. Needs a server built with
     * {@link RedisServerBuilder#clockShift()}. {@code Duration.ZERO} puts the clock right again. A running server that answers is
     * then asked its {@code TIME} until it reads the shifted clock (within a second), so a fault is in place when this
     * returns.
     *
     * @throws IllegalStateException if the server answers with a clock that did not move within 5 s
     */
    public void shiftClock(Duration offset) {
        process.shiftClock(offset); // a file write: no lock needed
        if (isRunning() && !isPaused()) {
            ServerCommands.awaitClock(port(), password, offset, this::toString);
        }
    }

    /** {@code CLIENT PAUSE ms WRITE}: the node stops processing writes (and scripts that write) for {@code pause}. */
    public void pauseWrites(Duration pause) {
        redis(r -> ServerCommands.pauseWrites(r, pause));
    }

    /** {@code CLIENT UNPAUSE}: ends a {@link #pauseWrites} at once. */
    public void resumeWrites() {
        redis(ServerCommands::unpause);
    }

    /**
     * {@code DEBUG SLEEP}: the node's only thread sleeps for {@code stall}, answering nothing. Returns at once; the
     * stage completes when the node is responsive again.
     */
    public CompletableFuture<Void> debugSleep(Duration stall) {
        return CompletableFuture.runAsync(() -> redis(r -> ServerCommands.debugSleep(r, stall)));
    }

    /** Caps memory with {@code maxmemory-policy allkeys-lru}: under pressure any key, lock keys included, is evicted. */
    public void evictAnyKeyAbove(long maxmemoryBytes) {
        redis(r -> ServerCommands.evictAnyKeyAbove(r, maxmemoryBytes));
    }

    /**
     * How often this server ran {@code command} since its statistics were reset ({@link #resetStats()}), as
     * {@code INFO commandstats} names it: {@code publish}, {@code evalsha}, {@code pubsub|numsub}; 0 if never.
     */
    public long calls(String command) {
        return this.<Long>redis(r -> ServerCommands.calls(r, command));
    }

    /** {@code CONFIG RESETSTAT}: the command statistics start again from zero. */
    public void resetStats() {
        redis(RedisCommands::configResetstat);
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
        Processes.deleteNow(process.dir());
    }

    @Override
    public String toString() {
        return "RedisServer[" + address() + (isPaused() ? ", paused" : isRunning() ? "" : ", down") + "]";
    }

    private void requireRunning() {
        if (!process.isRunning()) {
            throw new IllegalStateException("redis-server on port " + port + " is not running");
        }
    }
}
