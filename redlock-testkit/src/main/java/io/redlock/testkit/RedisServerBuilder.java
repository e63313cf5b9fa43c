package io.redlock.testkit;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntSupplier;
import java.util.function.Supplier;

/** Extra arguments and a password for a {@link RedisServer}. */
public final class RedisServerBuilder {
    final List<String> args = new ArrayList<>();
    final List<String> wrapper = new ArrayList<>();
    int port;
    boolean clockShift;
    IntSupplier freePorts = ServerProbes::freePort;
    Supplier<RedisBinary> binary = RedisBinary::get;

    RedisServerBuilder() {
    }

    /**
     * Extra command-line arguments, e.g. {@code "--appendonly", "yes"}; they override the defaults. A
     * {@code --requirepass} here is picked up like {@link #password(String)}.
     */
    public RedisServerBuilder args(String... extra) {
        args.addAll(List.of(extra));
        return this;
    }

    /** Requires this password ({@code --requirepass}); {@link RedisServer#uri()} then carries it. */
    public RedisServerBuilder password(String password) {
        args.add("--requirepass");
        args.add(password);
        return this;
    }

    /** A fixed port instead of a free one (fails to start if it is taken). */
    public RedisServerBuilder port(int port) {
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("port must be in [1, 65535], was " + port);
        }
        this.port = port;
        return this;
    }

    /**
     * Starts the server with the clock-shift shim (LD_PRELOAD, built with gcc), so
     * {@link RedisServer#shiftClock(Duration)} works. The clock starts unshifted.
     */
    public RedisServerBuilder clockShift() {
        this.clockShift = true;
        return this;
    }

    /**
     * Runs the server under {@code command}, e.g. {@code valgrind --tool=callgrind}: the server's command line follows
     * it. The wrapper must run the server in its own process (its pid is the server's) and keep the server's log on
     * standard output, as valgrind does.
     */
    public RedisServerBuilder under(String... command) {
        wrapper.addAll(List.of(command));
        return this;
    }

    /**
     * Where the port candidates come from when no fixed port is set (a free port each time, by default). A seam
     * for tests that force a port clash.
     */
    RedisServerBuilder freePorts(IntSupplier candidates) {
        this.freePorts = candidates;
        return this;
    }

    /** Which binary to run (the one {@link RedisBinary#get()} finds, by default). */
    RedisServerBuilder binary(Supplier<RedisBinary> which) {
        this.binary = which;
        return this;
    }

    /** The server, not started yet. */
    public RedisServer build() {
        return new RedisServer(this);
    }

    /** Builds and starts the server. */
    public RedisServer start() {
        return build().start();
    }
}
