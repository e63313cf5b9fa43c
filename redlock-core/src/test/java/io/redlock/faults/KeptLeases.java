package io.redlock.faults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.redlock.Lease;
import io.redlock.LockOptions;
import io.redlock.Redlock;
import io.redlock.testkit.RedisServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicInteger;

/** Leases kept alive by the watchdog until {@link #release()}; losses counted. */
final class KeptLeases implements AutoCloseable {

    private final Redlock redlock;
    /** Whether {@link #close()} closes {@link #redlock}: it was built here. */
    private final boolean owned;
    private final List<String> resources;
    private final AtomicInteger lost = new AtomicInteger();
    private final List<Lease> leases = Collections.synchronizedList(new ArrayList<>());
    private final CompletableFuture<Void> done = new CompletableFuture<>();
    private final List<CompletableFuture<Void>> held = new ArrayList<>();

    private KeptLeases(Redlock redlock, boolean owned, List<String> resources) {
        this.resources = resources;
        this.redlock = redlock;
        this.owned = owned;
    }

    /**
     * The kept leases' TTL, and the validity left when the watchdog extends them: it extends about once a second, so
     * its extensions meet whatever the test does to the nodes meanwhile, and a lease is lost only if no extension
     * lands for 2 s: a fault, not a pause of a loaded machine (with a 1 s TTL, extended at a third left, a pause of a
     * third of a second at the wrong moment could lose one).
     */
    static final Duration TTL = Duration.ofSeconds(3);
    static final Duration EXTEND_WHEN_REMAINING = Duration.ofSeconds(2);

    /**
     * Takes every resource on the cluster members with a TTL of {@link #TTL}, extended about once a second by the
     * watchdog, and keeps it.
     */
    static KeptLeases of(ClusterMembers members, List<String> resources) {
        return take(new KeptLeases(Redlock.builder().nodes(members.uris()).nodeTimeout(Duration.ofMillis(100)).build(),
                true, resources));
    }

    /** The same with {@code redlock}'s watchdog, which the test closes. */
    static KeptLeases in(Redlock redlock, List<String> resources) {
        return take(new KeptLeases(redlock, false, resources));
    }

    private static KeptLeases take(KeptLeases kept) {
        List<String> resources = kept.resources;
        LockOptions options = LockOptions.builder().ttl(TTL).extendWhenRemaining(EXTEND_WHEN_REMAINING)
                .maxWait(RowBench.PATIENCE).build();
        for (String resource : resources) {
            CompletionStage<Void> holding = kept.redlock.withLockAsync(resource, options, lease -> {
                lease.onLost((lostLease, reason) -> kept.lost.incrementAndGet());
                kept.leases.add(lease);
                return kept.done;
            });
            kept.held.add(holding.toCompletableFuture());
        }
        await().atMost(RowBench.PATIENCE).until(() -> kept.leases.size() == resources.size());
        return kept;
    }

    void assertNoneLost() {
        assertThat(lost).as("leases lost").hasValue(0);
        assertThat(leases).allMatch(Lease::isValid);
    }

    void release() {
        done.complete(null);
        CompletableFuture.allOf(held.toArray(CompletableFuture[]::new)).join();
    }

    /** No lock key of these leases on any running master (KEYS: a master's own keys, whatever the slot map). */
    boolean goneFrom(ClusterMembers members) {
        return members.servers().stream().filter(RedisServer::isRunning)
                .noneMatch(server -> server.redis(r -> r.keys("*")).stream().anyMatch(resources::contains));
    }

    @Override
    public void close() {
        done.complete(null);
        if (owned) {
            redlock.close();
        }
    }
}
