package io.redlock.bench;

import io.redlock.Lease;
import io.redlock.Redlock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletionStage;

/**
 * redlock-java, fenced or not: {@code tryAcquireAsync} then {@code releaseAsync}. Defaults except the
 * per-node timeout: the 50 ms default is meant for a quiet network and trips when a 2-core machine runs
 * the benchmark, Redis and 256 requests in flight at once, so redlock-java gets one second (Redisson's default is three, Lettuce's sixty).
 */
final class RedlockContestant implements Contestant {

    private static final Duration TTL = Duration.ofSeconds(10);
    static final Duration NODE_TIMEOUT = Duration.ofSeconds(1);

    private final boolean fencing;
    private final int nodes;
    private final Redlock redlock;

    RedlockContestant(List<String> uris, boolean fencing) {
        this(uris, fencing, NODE_TIMEOUT);
    }

    /** With a per-node timeout of its own: a node under valgrind answers in milliseconds. */
    RedlockContestant(List<String> uris, boolean fencing, Duration nodeTimeout) {
        this.fencing = fencing;
        this.nodes = uris.size();
        this.redlock = Redlock.builder().nodes(uris).fencing(fencing).nodeTimeout(nodeTimeout).build();
    }

    @Override
    public String name() {
        return fencing ? "redlock-java (fenced)" : "redlock-java (no fencing)";
    }

    @Override
    public String id() {
        return fencing ? "fenced" : "unfenced";
    }

    @Override
    public int nodes() {
        return nodes;
    }

    @Override
    public CompletionStage<Void> pair(String resource, int slot) {
        return redlock.tryAcquireAsync(resource, TTL).thenCompose(lease -> lease.isPresent()
                ? lease.get().releaseAsync()
                : Contestant.notAcquired(resource));
    }

    /** One pair through the blocking API: {@code tryAcquire}, then {@code Lease.release()}. */
    void pairThroughBlockingApi(String resource) {
        Lease lease = redlock.tryAcquire(resource, TTL)
                .orElseThrow(() -> new IllegalStateException("not acquired: " + resource));
        lease.release();
    }

    @Override
    public void close() {
        redlock.close();
    }
}
