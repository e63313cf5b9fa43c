package io.redlock.histories;

import static org.assertj.core.api.Assertions.assertThat;

import io.redlock.Lease;
import io.redlock.LockOptions;
import io.redlock.LossReason;
import io.redlock.Redlock;
import io.redlock.RedlockLock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * One generated history of a {@link RedlockLock}: two threads of one client ({@code T1}, {@code T2}) lock a resource
 * through the {@code Lock} API while a second client (the rival) takes and releases plain leases on it, and faults
 * fall between the calls. The model is the lock's owner thread, its hold count and lease, and the rival's lease; every
 * call's result is checked against what the model allows ({@link LockCalls}).
 *
 * <p>Where time decides (a lease that may run out during a call), the model allows what is true at some moment of the
 * call: a lease seen lost before a call must make a nested call throw; one still valid after it must let it count.
 * After every step, no two leases are valid at once (each lease's validity read before and after the other's).
 */
final class LockWorld implements AutoCloseable {

    static final Duration KEPT_TTL = Duration.ofSeconds(2);
    static final Duration FIXED_LONG = Duration.ofMinutes(1);
    static final Duration FIXED_SHORT = Duration.ofMillis(500);
    static final Duration TRY_WAIT = Duration.ofMillis(200);
    /** Bounds any call the model says returns. */
    static final Duration RETURNS_WITHIN = Duration.ofSeconds(20);

    final HistoryNodes bench;
    final Clients clients;
    final String resource;
    final RedlockLock lock;
    final List<Actor> threads;
    final FencedStorage storage;

    /** The thread that holds the lock (holds > 0), or null. */
    Actor owner;
    int holds;
    Lease lease;
    /** The TTL of the owner's fixed lease, or null if the watchdog keeps it alive. */
    Duration fixedTtl;
    Lease rival;
    long lastToken;
    /** Whether each thread's interrupt flag was set after its last call (an actor keeps it between calls). */
    private final boolean[] flagged = new boolean[2];

    /** The two clients a history runs on, shared by the histories of one property (they connect once). */
    record Clients(Redlock mine, Redlock rival, NodeFailures failures, NodeFailures rivalFailures)
            implements AutoCloseable {

        static Clients on(HistoryNodes bench) {
            NodeFailures failures = new NodeFailures();
            NodeFailures rivalFailures = new NodeFailures();
            return new Clients(bench.client(failures), bench.client(rivalFailures), failures, rivalFailures);
        }

        @Override
        public void close() {
            mine.close();
            rival.close();
        }
    }

    LockWorld(HistoryNodes bench, Clients clients, String resource) {
        this.bench = bench;
        this.clients = clients;
        this.resource = resource;
        this.lock = clients.mine().lock(resource, LockOptions.builder().ttl(KEPT_TTL).maxWait(RETURNS_WITHIN).build());
        this.threads = List.of(new Actor("T1"), new Actor("T2"));
        this.storage = new FencedStorage(bench.fenced, resource + ":balance");
    }

    Actor thread(int index) {
        return threads.get(index);
    }

    /** Runs {@code call} on {@code t} and records its interrupt flag afterwards. */
    Actor.Result call(Actor t, java.util.concurrent.Callable<?> call, boolean interruptFirst) {
        Actor.Result result = t.call(call, interruptFirst, RETURNS_WITHIN);
        flagged[threads.indexOf(t)] = result.interruptedAfter();
        return result;
    }

    /** Whether {@code t}'s interrupt flag was set after its last call. */
    boolean flagged(Actor t) {
        return flagged[threads.indexOf(t)];
    }

    /** True if the lease is certainly not valid now (lost, released or run out). */
    static boolean invalid(Lease lease) {
        return lease.lossReason().isPresent() || !lease.isValid();
    }

    /** The reason a nested call after the loss of {@code lease} must give. */
    static LossReason reasonOf(Lease lease) {
        return lease.lossReason().orElse(LossReason.EXPIRED);
    }

    /** A newly granted lease: its token is above every token granted before on the resource. */
    void granted(Lease granted, String who) {
        assertThat(granted.fencingToken()).as("%s's token after %d", who, lastToken).isGreaterThan(lastToken);
        lastToken = granted.fencingToken();
        storage.write(granted, who);
    }

    /** The held lock's lease and the rival's are never valid at the same time. */
    void checkExclusion() {
        if (owner == null || rival == null) {
            return;
        }
        boolean mineFirst = lease.isValid();
        boolean theirs = rival.isValid();
        boolean mineAfter = lease.isValid();
        assertThat(mineFirst && theirs && mineAfter).as("the lock's lease %s and the rival's %s valid at once", lease,
                rival).isFalse();
        boolean theirsFirst = rival.isValid();
        boolean mine = lease.isValid();
        boolean theirsAfter = rival.isValid();
        assertThat(theirsFirst && mine && theirsAfter).as("the rival's lease %s and the lock's %s valid at once",
                rival, lease).isFalse();
    }

    /** Waits (bounded) until the lease is seen lost or run out. */
    static void awaitInvalid(Lease lease, Duration within, String why) throws InterruptedException {
        long deadline = System.nanoTime() + within.toNanos();
        while (!invalid(lease)) {
            assertThat(System.nanoTime() - deadline).as("%s within %s", why, within).isNegative();
            Thread.sleep(5);
        }
    }

    /**
     * The end of a history: every hold unwound (a lost lease's last unlock may report the loss), the rival released,
     * faults healed; then no key of the resource is left on any node.
     */
    void unwind() throws InterruptedException {
        while (owner != null) {
            LockCalls.unlock(this, owner);
        }
        if (rival != null) {
            rival.release();
            rival = null;
        }
        bench.heal();
        assertThat(bench.goneEverywhere(resource, Duration.ofSeconds(10))).as("no key of %s left on any node",
                resource).isTrue();
    }

    Optional<Lease> currentLeaseOn(Actor thread) {
        Actor.Result result = call(thread, lock::currentLease, false);
        assertThat(result.thrown()).as("currentLease()").isNull();
        @SuppressWarnings("unchecked")
        Optional<Lease> current = (Optional<Lease>) result.value();
        return current;
    }

    /** Ends a history that failed half-way: every hold each thread still has is unlocked, whatever it answers. */
    @Override
    public void close() throws InterruptedException {
        for (Actor thread : threads) {
            for (int i = 0; i < LockHistoriesIT.STEPS && lock.isLocked(); i++) {
                Actor.Result r = thread.call(() -> {
                    lock.unlock();
                    return null;
                }, false, RETURNS_WITHIN);
                if (r.threw(IllegalMonitorStateException.class)) {
                    break;
                }
            }
            thread.close();
        }
        if (rival != null) {
            rival.release();
        }
    }

    @Override
    public String toString() {
        return resource + ": owner " + (owner == null ? "none" : owner.name() + " x" + holds
                + (fixedTtl != null ? " fixed " + fixedTtl : " kept"))
                + ", rival " + (rival == null ? "none" : "holds");
    }
}
