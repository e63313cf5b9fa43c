package io.redlock.testkit;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A real Redis Sentinel (the same {@code redis-server} binary with {@code --sentinel}) on a free loopback port,
 * monitoring one {@link RedisServer} under a master name, with the master's password if it has one. Killed by
 * {@link #close()}, and by the testkit's shutdown hook if the JVM exits first.
 */
public final class RedisSentinel implements AutoCloseable {

    private static final String HOST = "127.0.0.1";
    private static final Duration START_TIMEOUT = Duration.ofSeconds(15);

    private final String masterName;
    private final Path dir;
    private final int port;
    private final Process process;

    private RedisSentinel(String masterName, Path dir, int port, Process process) {
        this.masterName = masterName;
        this.dir = dir;
        this.port = port;
        this.process = process;
    }

    /** Starts a sentinel that monitors {@code master} (quorum 1) as {@code masterName} and waits until it answers. */
    public static RedisSentinel monitor(String masterName, RedisServer master) {
        Path dir;
        try {
            dir = Files.createTempDirectory("redlock-sentinel-");
        } catch (IOException e) {
            throw new IllegalStateException("cannot create a temp dir: " + e.getMessage(), e);
        }
        Processes.deleteOnExit(dir);
        int port = ServerProbes.freePort();
        List<String> conf = new ArrayList<>(List.of("port " + port, "bind " + HOST, "dir " + dir,
                "sentinel monitor " + masterName + " " + HOST + " " + master.port() + " 1"));
        if (master.password() != null) {
            conf.add("sentinel auth-pass " + masterName + " " + master.password());
        }
        Path confFile = dir.resolve("sentinel.conf");
        Path logFile = dir.resolve("sentinel.log");
        Process process;
        try {
            Files.write(confFile, conf);
            process = new ProcessBuilder(RedisBinary.get().path().toString(), confFile.toString(), "--sentinel")
                    .redirectErrorStream(true).redirectOutput(logFile.toFile()).start();
        } catch (IOException e) {
            Processes.deleteNow(dir);
            throw new IllegalStateException("cannot start a sentinel: " + e.getMessage(), e);
        }
        Processes.register(process);
        RedisSentinel sentinel = new RedisSentinel(masterName, dir, port, process);
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        while (System.nanoTime() - deadline < 0) {
            if (!process.isAlive()) {
                String output = ServerProbes.tail(logFile);
                sentinel.close();
                throw new IllegalStateException("the sentinel exited: " + output);
            }
            if (ServerProbes.answersPing(port)) {
                return sentinel;
            }
            try {
                Thread.sleep(5);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                sentinel.close();
                throw new IllegalStateException("interrupted while the sentinel started", e);
            }
        }
        sentinel.close();
        throw new IllegalStateException("the sentinel did not answer within " + START_TIMEOUT);
    }

    public String masterName() {
        return masterName;
    }

    public String host() {
        return HOST;
    }

    public int port() {
        return port;
    }

    /** {@code host:port}. */
    public String address() {
        return HOST + ":" + port;
    }

    public long pid() {
        return process.pid();
    }

    /** SIGKILL, then deletes its directory. */
    @Override
    public void close() {
        process.destroyForcibly();
        try {
            process.waitFor(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        Processes.unregister(process);
        Processes.deleteNow(dir);
    }

    @Override
    public String toString() {
        return "RedisSentinel[" + masterName + " at " + address() + "]";
    }
}
