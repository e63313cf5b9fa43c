package io.redlock;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * One node's answer to {@link Redlock#ping()}: whether it answered {@code PING} within the per-node timeout, how fast,
 * or why not.
 *
 * @param node    the node as {@code host:port} (a sentinel-managed master as
 *                {@code sentinel:<master>@<host:port,...>}), never with credentials
 * @param latency the round trip of the {@code PING}, if the node answered in time
 * @param problem why the node did not answer in time, with any password removed
 */
public record PingResult(String node, Optional<Duration> latency, Optional<String> problem) {

    public PingResult {
        Objects.requireNonNull(node, "node");
        Objects.requireNonNull(latency, "latency");
        Objects.requireNonNull(problem, "problem");
        if (latency.isPresent() == problem.isPresent()) {
            throw new IllegalArgumentException("exactly one of latency and problem must be present");
        }
    }

    /** A node that answered after {@code latency}. */
    public static PingResult answered(String node, Duration latency) {
        return new PingResult(node, Optional.of(latency), Optional.empty());
    }

    /** A node that did not answer in time, for {@code problem}. */
    public static PingResult unanswered(String node, String problem) {
        return new PingResult(node, Optional.empty(), Optional.of(problem));
    }

    /** True if the node answered {@code PING} within the per-node timeout. */
    public boolean answered() {
        return latency.isPresent();
    }
}
