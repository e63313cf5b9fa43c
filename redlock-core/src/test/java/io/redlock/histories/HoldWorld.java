package io.redlock.histories;

import static org.assertj.core.api.Assertions.assertThat;

import io.redlock.Redlock;
import io.redlock.fencing.Fence;
import io.redlock.histories.Hold.Kind;
import io.redlock.testkit.RedisServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * One generated history of holds of every kind on one resource, by three clients: plain leases, the write and read
 * locks of a read-write lock, locks of the resource with a second one, and permits of a semaphore (a resource of its
 * own), each taken with {@code tryAcquire}, then extended, released, or released after a minimum hold. The rules, as
 * properties:
 * <ul>
 *   <li>holds that exclude each other ({@link Kind#excludes}) are never valid at the same time, and never more than
 *       {@value #PERMITS} permits;</li>
 *   <li>a minimum hold keeps every excluded kind out until it has passed: no grant returns sooner, and no node that
 *       held the key drops it sooner;</li>
 *   <li>an attempt is granted when nothing it excludes is held (empty-handed only if a node failed meanwhile);</li>
 *   <li>tokens of the resource rise with every grant of a kind that writes, and the storage accepts exactly the
 *       writes with the highest token;</li>
 *   <li>an extension succeeds only for a valid lease, never for a released or run-out one, and leaves it valid;</li>
 *   <li>a release leaves no key of the lease on any node.</li>
 * </ul>
 */
final class HoldWorld {

    static final int PERMITS = 2;
    static final Duration SHORT = Duration.ofMillis(600);
    static final Duration LONG = Duration.ofMinutes(1);
    /** How late a minimum hold's re-expiry may reach the nodes after its call returned. */
    private static final Duration KEPT_SLACK = Duration.ofMillis(100);
    private static final Duration WITHIN = Duration.ofSeconds(10);

    final HistoryNodes bench;
    final List<Redlock> clients;
    final List<NodeFailures> failures;
    final String resource;
    final String permits;
    final FencedStorage storage;
    final List<Hold> holds = new ArrayList<>();
    private long lastToken;

    HoldWorld(HistoryNodes bench, List<Redlock> clients, List<NodeFailures> failures, String resource) {
        this.bench = bench;
        this.clients = clients;
        this.failures = failures;
        this.resource = resource;
        this.permits = resource + "-permits";
        this.storage = new FencedStorage(bench.fenced, resource + ":balance");
    }

    void acquire(int client, Kind kind, Duration ttl) {
        long failed = failures.get(client).count();
        long started = System.nanoTime();
        Optional<Hold> got = take(client, kind, ttl);
        long ended = System.nanoTime();
        String what = "C" + client + " " + kind + " " + ttl + ": " + (got.isPresent() ? "granted" : "refused")
                + ", holds " + holds;
        if (got.isEmpty()) {
            boolean excused = failures.get(client).count() > failed || Duration.ofNanos(ended - started)
                    .compareTo(ttl) >= 0;
            assertThat(excused || !free(kind, started)).as("%s: refused with nothing it excludes held", what).isTrue();
            return;
        }
        Hold granted = got.get();
        for (Hold other : holds) {
            if (other.kind.excludes(kind)) {
                assertThat(other.isValid()).as("%s: granted while %s is valid", what, other).isFalse();
                assertThat(other.keptUntil == null || ended - other.keptUntil >= 0)
                        .as("%s: granted within %s's minimum hold", what, other).isTrue();
            }
        }
        if (kind == Kind.PERMIT) {
            long atOnce = holds.stream().filter(h -> h.kind == Kind.PERMIT)
                    .filter(h -> h.isValid() || h.keptUntil != null && ended - h.keptUntil < 0).count() + 1;
            assertThat(atOnce).as("%s: permits held at once", what).isLessThanOrEqualTo(PERMITS);
        }
        if (kind.writes()) {
            assertThat(granted.token()).as("%s: token after %d", what, lastToken).isGreaterThan(lastToken);
            lastToken = granted.token();
            write(granted);
        }
        holds.add(granted);
    }

    private Optional<Hold> take(int client, Kind kind, Duration ttl) {
        Redlock redlock = clients.get(client);
        return switch (kind) {
            case PLAIN -> redlock.tryAcquire(resource, ttl).map(l -> new Hold(client, kind, l, null, resource));
            case WRITE -> redlock.readWriteLock(resource).tryAcquireWrite(ttl)
                    .map(l -> new Hold(client, kind, l, null, resource));
            case READ -> redlock.readWriteLock(resource).tryAcquireRead(ttl)
                    .map(l -> new Hold(client, kind, l, null, resource));
            case SEVERAL -> redlock.tryAcquireAll(List.of(resource, resource + "-also"), ttl)
                    .map(m -> new Hold(client, kind, null, m, resource));
            case PERMIT -> redlock.semaphore(permits, PERMITS).tryAcquire(ttl)
                    .map(l -> new Hold(client, kind, l, null, permits));
        };
    }

    /** Whether nothing {@code kind} excludes may be held at {@code nanos} (fewer than the permits, for a permit). */
    private boolean free(Kind kind, long nanos) {
        if (kind == Kind.PERMIT) {
            return holds.stream().filter(h -> h.kind == Kind.PERMIT).filter(h -> h.mayHoldAt(nanos)).count() < PERMITS;
        }
        return holds.stream().noneMatch(h -> h.kind.excludes(kind) && h.mayHoldAt(nanos));
    }

    void write(Hold hold) {
        storage.write(new Fence(hold.token(), hold.value()), hold.toString());
    }

    void release(Hold hold) throws InterruptedException {
        hold.release();
        if (hold.kind.writes()) {
            assertThat(bench.valueGone(resource, hold.value(), WITHIN)).as("%s: its key is deleted on every node",
                    hold).isTrue();
        }
    }

    void releaseAfter(Hold hold, Duration keep) {
        List<RedisServer> holding = hold.kind.writes() ? bench.nodes.servers().stream()
                .filter(node -> hold.value().equals(node.get(resource))).toList() : List.of();
        // the hold is kept only if its keys are surely still there when the re-expiry reaches them
        boolean kept = hold.lease.remainingValidity().compareTo(HistoryNodes.NODE_TIMEOUT) >= 0;
        long started = System.nanoTime();
        hold.lease.releaseAfter(keep);
        hold.released = true;
        hold.mayKeepUntil = System.nanoTime() + keep.plus(KEPT_SLACK).toNanos();
        if (!kept) {
            return;
        }
        hold.keptUntil = started + keep.toNanos();
        for (RedisServer node : holding) {
            boolean held = hold.value().equals(node.get(resource));
            long seen = System.nanoTime();
            assertThat(held || seen - hold.keptUntil >= 0).as("%s: %s dropped the key %d ms into a minimum hold of %s",
                    hold, node.address(), (seen - started) / 1_000_000, keep).isTrue();
        }
    }

    void extend(Hold hold) {
        boolean validBefore = !hold.released && hold.isValid();
        long failed = failures.get(hold.client).count();
        boolean extended = hold.extend(LONG);
        String what = hold + " extend: " + extended;
        if (extended) {
            assertThat(validBefore).as("%s: a released or run-out lease was extended", what).isTrue();
            assertThat(hold.isValid()).as("%s: valid after its extension", what).isTrue();
        } else if (validBefore && hold.isValid()) {
            assertThat(failures.get(hold.client).count()).as("%s: a valid lease not extended, no node failure", what)
                    .isGreaterThan(failed);
        }
    }

    /** No two holds that exclude each other valid at once, and no more than the permits (read twice, in turn). */
    void checkExclusion() {
        List<Hold> live = holds.stream().filter(h -> !h.released).toList();
        boolean[] first = new boolean[live.size()];
        for (int i = 0; i < live.size(); i++) {
            first[i] = live.get(i).isValid();
        }
        List<Hold> valid = new ArrayList<>();
        for (int i = live.size() - 1; i >= 0; i--) {
            if (first[i] && live.get(i).isValid()) {
                valid.add(live.get(i)); // valid over both readings, so at one moment together with the others
            }
        }
        for (Hold a : valid) {
            for (Hold b : valid) {
                assertThat(a != b && a.kind.excludes(b.kind)).as("%s and %s valid at once", a, b).isFalse();
            }
        }
        assertThat(valid.stream().filter(h -> h.kind == Kind.PERMIT).count()).as("permits valid at once: %s", valid)
                .isLessThanOrEqualTo(PERMITS);
    }

    /**
     * The end of a history: everything released, then no key of the resource left on any node once the minimum holds
     * ended (checked before the faults are healed: putting a jumped clock back would keep its keys longer).
     */
    void unwind() throws InterruptedException {
        for (Hold hold : holds) {
            if (!hold.released) {
                release(hold);
            }
        }
        long lastKept = holds.stream().filter(h -> h.mayKeepUntil != null).mapToLong(h -> h.mayKeepUntil).max()
                .orElse(System.nanoTime());
        Duration untilKeptEnds = Duration.ofNanos(Math.max(0, lastKept - System.nanoTime()));
        for (String key : List.of(resource, resource + "-also", permits)) {
            assertThat(bench.goneEverywhere(key, untilKeptEnds.plus(WITHIN))).as("no key %s left on any node: %s", key,
                    bench.holdersOf(key)).isTrue();
        }
        bench.heal();
    }

    /** Ends a history that failed half-way: every hold still held is released, whatever the nodes answer. */
    void releaseWhatIsLeft() {
        for (Hold hold : holds) {
            if (!hold.released) {
                try {
                    hold.release();
                } catch (RuntimeException ignored) {
                    // it goes as far as it can; the next history uses other resources
                }
            }
        }
    }
}
