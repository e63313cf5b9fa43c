package io.redlock.testkit;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.HexFormat;

/**
 * A real database server process for tests, like {@link RedisServer}: the system's binaries, a temporary directory
 * (data, log, unix socket) given to the unprivileged user the server runs as ({@code nobody} when the tests run as
 * root), a free loopback port, a user {@value #USER} with a random password (never logged or printed: not in
 * {@link #toString()}), stopped by pid. {@link #close()} stops it and deletes the directory; a JVM shutdown does the
 * same for servers still running. Thread-safe.
 */
public abstract class SqlServer implements AutoCloseable {

    /** The user tests log in as. */
    public static final String USER = "redlock";

    private final Path dir;
    private final String password;
    private final SqlProcess process; // guarded by this
    private int port;
    private boolean closed;

    SqlServer(String prefix, String name, String ready, String stopSignal) {
        try {
            this.dir = Files.createTempDirectory(prefix);
        } catch (IOException e) {
            throw new IllegalStateException("cannot create a temp dir: " + e.getMessage(), e);
        }
        Processes.deleteOnExit(dir);
        byte[] secret = new byte[16];
        new SecureRandom().nextBytes(secret);
        this.password = HexFormat.of().formatHex(secret);
        this.process = new SqlProcess(name, dir.resolve("server.log"), this::command, ready, stopSignal);
    }

    /** The server's command line for {@code port}. */
    abstract java.util.List<String> command(int port);

    /** Creates the data directory (once, before the first start), as the unprivileged user. */
    abstract void initialize();

    /** The JDBC URL of the test database, without credentials. */
    public abstract String jdbcUrl();

    /** The name of the test database. */
    public abstract String database();

    /** {@code server} started, or closed (its directory deleted) if it could not start. */
    static <S extends SqlServer> S started(S server) {
        try {
            server.start();
        } catch (RuntimeException e) {
            server.close();
            throw e;
        }
        return server;
    }

    /** Starts the server if it is not running (the first time on a free port, then on the same port). */
    public synchronized SqlServer start() {
        if (closed) {
            throw new IllegalStateException(this + " is closed");
        }
        if (!process.isRunning()) {
            if (port == 0) {
                initialize();
                ServerUser.own(dir);
            }
            port = process.start(port);
        }
        return this;
    }

    /** A clean shutdown; {@link #start()} brings it back on the same port with its data. */
    public synchronized void stop() {
        process.end(false);
    }

    /** SIGKILL. */
    public synchronized void kill() {
        process.end(true);
    }

    /** SIGSTOP: connections stay open, nothing is answered until {@link #resume()}. */
    public synchronized void pause() {
        process.pause(true);
    }

    /** SIGCONT after {@link #pause()}. */
    public synchronized void resume() {
        process.pause(false);
    }

    public synchronized boolean isRunning() {
        return process.isRunning();
    }

    public synchronized long pid() {
        return process.pid();
    }

    public String host() {
        return ServerProbes.HOST;
    }

    public synchronized int port() {
        return port;
    }

    public String user() {
        return USER;
    }

    /** The password of {@link #user()}: pass it to a driver, never print it. */
    public String password() {
        return password;
    }

    /** The temporary directory: data, log, socket. */
    public Path dir() {
        return dir;
    }

    public Path logFile() {
        return dir.resolve("server.log");
    }

    /** Stops the server and deletes its directory. */
    @Override
    public synchronized void close() {
        closed = true;
        process.end(false);
        Processes.deleteNow(dir);
    }

    /** Runs a setup command to its end as the unprivileged user, failing with its output. */
    void runToEnd(String what, java.util.List<String> command) {
        ServerUser.own(dir);
        Path output = dir.resolve(what + ".log");
        try {
            Process setup = new ProcessBuilder(ServerUser.command(command)).redirectErrorStream(true)
                    .redirectOutput(output.toFile()).start();
            Processes.register(setup);
            try {
                if (!setup.waitFor(60, java.util.concurrent.TimeUnit.SECONDS)) {
                    setup.destroyForcibly();
                    throw new IllegalStateException(what + " took more than 60 s: " + ServerProbes.tail(output));
                }
            } finally {
                Processes.unregister(setup);
            }
            if (setup.exitValue() != 0) {
                throw new IllegalStateException(what + " exited with " + setup.exitValue() + ": "
                        + ServerProbes.tail(output));
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot run " + what + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted running " + what, e);
        }
    }

    /** Writes a file only the server's user can read (a password file, an init script). */
    Path secretFile(String name, String content) {
        Path file = dir.resolve(name);
        try {
            Files.writeString(file, content);
            Files.setPosixFilePermissions(file, java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
        } catch (IOException e) {
            throw new IllegalStateException("cannot write " + file + ": " + e.getMessage(), e);
        }
        return file;
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + "[" + host() + ":" + port() + (isRunning() ? "" : ", down") + "]";
    }
}
