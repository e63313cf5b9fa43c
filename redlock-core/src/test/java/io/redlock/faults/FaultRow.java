package io.redlock.faults;

import static io.redlock.faults.Expect.HOLDS;
import static io.redlock.faults.Expect.REPORTED;
import static io.redlock.faults.Expect.VIOLATED;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.EnumSet;
import java.util.Set;

/**
 * The rows of the fault matrix, in the order of docs/GUARANTEES.md. One row is a fault (its scenario) and what it
 * must keep or is expected to break:
 * <ul>
 *   <li>always: token order at the storage and no lost fenced increment (see {@link Row#check});</li>
 *   <li>mutual exclusion of critical sections and of validity windows: {@link Expect#HOLDS}, {@link Expect#VIOLATED}
 *       (the fault must break it and the checker see it) or {@link Expect#REPORTED};</li>
 *   <li>liveness: at least {@code atLeast} acquisitions and half as many acknowledged fenced increments;</li>
 *   <li>{@link Also further properties} the scenario asserts on its own (no key left behind, no lock without a
 *       majority...): the matrix fails a row whose scenario did not assert exactly these.</li>
 * </ul>
 */
enum FaultRow {

    F0("no fault", HOLDS, HOLDS, 12, "the baseline: one holder at a time, every increment kept",
            ProcessFaultRows::noFault),
    F1a("holder paused in its critical section for 2×TTL and until another worker holds (in-process GC"
            + " pause)", VIOLATED, HOLDS, 9,
            "the lock kept its promise (validity windows never overlap), but nothing stops a paused holder"
                    + " from writing after its lease expired; fencing makes the storage refuse its stale write",
            ProcessFaultRows::holderPausedPastItsValidity),
    F1b("holder process stopped with SIGSTOP for 2×TTL and until another worker holds (a real JVM)", VIOLATED, HOLDS, 4,
            "the same with a real process: on SIGCONT it writes; only the token check at the storage saves the data",
            ProcessFaultRows::realHolderProcessStoppedWithSigstop),
    F2("client paused 1.2×TTL with the acquire replies in flight, then after computing validity", HOLDS, HOLDS, 9,
            "elapsed ≥ TTL − drift when the client resumes: it refuses the lock (asserted at both hook points) and"
                    + " releases it on every node, never a false success",
            ProcessFaultRows::clientPausedWhileRepliesAreInFlight, Also.REFUSED_PAST_VALIDITY, Also.NO_KEY_LEFT),
    F3("1, then 2 nodes stalled (SIGSTOP), then 3", HOLDS, HOLDS, 11,
            "4 or 3 of 5 answering is enough (progress asserted); with 3 stalled no acquisition succeeds, and an"
                    + " attempt fails while they are stalled: it waits for none of them past the per-node timeout",
            NodeFaultRows::nodesStalled, Also.PROGRESS_UNDER_FAULT, Also.NO_LOCK_WITHOUT_MAJORITY),
    F4("kill -9 of 3 nodes and immediate restart (empty)", VIOLATED, VIOLATED, 4,
            "restarted nodes forget the lock (SPEC R9): a second client takes it while the first still holds; fenced"
                    + " writes are still refused when stale",
            NodeFaultRows::crashAndImmediateRestart),
    F5("kill -9 of 3 nodes, restart delayed 1.5×TTL", HOLDS, HOLDS, 6,
            "down longer than the TTL, a node comes back only after every lease it knew has expired (SPEC R9)",
            NodeFaultRows::crashAndDelayedRestart),
    F6("clock +60 s (twice the holder's lease) on one node while the holder has exactly 3 of 5", VIOLATED, VIOLATED, 4,
            "Kleppmann's first example: the jumped node expires the lock early, a second client gets 3 of 5; tokens"
                    + " keep the storage consistent",
            ClockFaultRows::clockJumpOnOneOfExactlyThreeNodes),
    F7a("clock +60 s (twice the holder's lease) on 1 node while the holder has 5 of 5", HOLDS, HOLDS, 4,
            "one node losing the lock early leaves the holder 4 of 5: still a majority",
            ClockFaultRows::clockJumpOnOneNodeOfFive),
    F7b("clock +60 s (twice the holder's lease) on 3 nodes while the holder has 5 of 5", VIOLATED, VIOLATED, 4,
            "a majority of clocks jumping ends the lock everywhere that counts: two holders; tokens still protect the"
                    + " data",
            ClockFaultRows::clockJumpOnThreeNodes),
    F8("clock −60 s on 2 nodes", HOLDS, HOLDS, 10,
            "a clock going back only keeps old keys longer on those nodes: slower, never unsafe",
            ClockFaultRows::clockBackOnTwoNodes),
    F9("clock strobe ±TTL every 100 ms on 2 nodes", REPORTED, REPORTED, 5,
            "reported only: the lock keeps working and the fenced path stays clean",
            ClockFaultRows::clockStrobe, Also.PROGRESS_UNDER_FAULT),
    F10("partition of 2 nodes, then 3, then heal", HOLDS, HOLDS, 8,
            "a minority partition is tolerated; without a majority nobody gets the lock; it heals cleanly",
            NetworkFaultRows::partitions, Also.PROGRESS_UNDER_FAULT, Also.NO_LOCK_WITHOUT_MAJORITY),
    F11("replies dropped from 3 nodes (requests still applied), then heal", HOLDS, HOLDS, 5,
            "no false success without replies; the library releases on all 5 nodes (no orphan key with a 30 s TTL"
                    + " after heal) and drops the connections whose replies went missing",
            NetworkFaultRows::repliesDropped, Also.NO_LOCK_WITHOUT_MAJORITY, Also.NO_KEY_LEFT),
    F12("latency 0.4×TTL each way on 2 nodes", HOLDS, HOLDS, 8,
            "slow replies past the per-node timeout do not count; a lease taken through slow nodes reports the"
                    + " validity left after the real elapsed time; a TTL that replies within the per-node timeout"
                    + " could exhaust (TTL − drift − timeout ≤ 0) is refused before anything is sent",
            NetworkFaultRows::slowNodes),
    F13("extend under a partition of 3 nodes, and after expiry", HOLDS, HOLDS, 5,
            "every holder extends: an extension counts only with a majority inside the new validity (failed ones"
                    + " recorded, the holder gives up), and never re-creates an expired key",
            NetworkFaultRows::extendUnderPartitionAndAfterExpiry, Also.EXTEND_NEEDS_MAJORITY),
    F14("allkeys-lru eviction on 3 nodes", VIOLATED, VIOLATED, 4,
            "eviction deletes lock keys (and fencing counters) under memory pressure: two holders, and tokens that"
                    + " can go back — refused at the storage; use noeviction",
            NodeFaultRows::evictionOnThreeNodes),
    F15("CLIENT PAUSE WRITE on 2 nodes", HOLDS, HOLDS, 6,
            "two nodes that stop writing are two nodes down: the other three carry the lock (asserted: two"
                    + " acquisitions while a write to a paused node is still held back)",
            NodeFaultRows::writesPausedOnTwoNodes, Also.PROGRESS_UNDER_FAULT),
    F16("3 nodes stalled 8 s (SIGSTOP), longer than any fixed retry window, then resumed", HOLDS, HOLDS, 5,
            "the stalled nodes apply the queued writes when they resume; the library repeats its deletes until the"
                    + " keys would have expired anyway, so no key of a failed attempt outlives the resume by 10 s"
                    + " (asserted with a 30 s key, 20 s before it would expire)",
            NodeFaultRows::majorityStalledPastEveryRetryWindow, Also.NO_LOCK_WITHOUT_MAJORITY, Also.NO_KEY_LEFT),
    F17("fencing counters expire while idle (2 s horizon) on every node, then clock −1 s on 3 nodes", HOLDS, HOLDS, 8,
            "an expired counter comes back at the clock floor, above every token it issued (asserted: every token"
                    + " after is above every token before); a clock step back smaller than the horizon cannot undo"
                    + " that; one of the horizon or more can (docs/FENCING.md, \"Counters that expire\")",
            CounterFaultRows::countersExpireWhileIdle, Also.TOKENS_RISE_ACROSS_EXPIRY),
    F18("3 members that are Redis Clusters of 3 shards; the shard holding the lock killed in one member", HOLDS, HOLDS,
            12, "a cluster member is one vote: the killed shard takes it for its slots, then for all once the cluster"
                    + " marks itself failed (CLUSTERDOWN); the other two members carry the lock (progress asserted),"
                    + " and 30 leases kept alive on every shard are never lost (asserted)",
            ClusterFaultRows::shardOfOneMemberKilled, Also.PROGRESS_UNDER_FAULT, Also.KEPT_LEASES_SURVIVE),
    F19("locks of several resources beside plain ones: a holder paused in its critical section for 2×TTL and until"
            + " another worker holds", VIOLATED,
            HOLDS, 9, "as F1a, with two workers locking the resource together with a second one (acquireAll) and one"
                    + " locking it alone: the kinds exclude each other, and the paused holder's stale write is refused",
            several(ProcessFaultRows::holderPausedPastItsValidity)),
    F20("locks of several resources beside plain ones: 1, then 2 nodes stalled, then 3", HOLDS, HOLDS, 11,
            "as F3: 3 of 5 answering carry locks of several resources too; with 3 stalled none is granted",
            several(NodeFaultRows::nodesStalled), Also.PROGRESS_UNDER_FAULT, Also.NO_LOCK_WITHOUT_MAJORITY),
    F21("locks of several resources beside plain ones: kill -9 of 3 nodes and immediate restart", VIOLATED, VIOLATED,
            4, "as F4: restarted nodes forget every key of a lock of several resources at once; a plain or several"
                    + " lock takes the resource beside it; stale fenced writes are refused",
            several(NodeFaultRows::crashAndImmediateRestart)),
    F22("locks of several resources beside plain ones: kill -9 of 3 nodes, restart delayed 1.5×TTL", HOLDS, HOLDS, 6,
            "as F5: a delayed restart keeps locks of several resources exclusive too (SPEC R9)",
            several(NodeFaultRows::crashAndDelayedRestart)),
    F23("locks of several resources beside plain ones: clock +60 s (twice the holder's lease) on one node while the"
            + " holder has exactly 3 of 5",
            VIOLATED, VIOLATED, 4, "as F6: the jumped node expires every key of the lock at once (one TTL); tokens keep"
                    + " the storage consistent",
            several(ClockFaultRows::clockJumpOnOneOfExactlyThreeNodes)),
    F24("read-write lock, a writer and two readers: the writer paused in its critical section for 2×TTL and until"
            + " another worker holds", VIOLATED, HOLDS,
            6, "as F1a: readers hold together, never beside the writer, until the paused writer's lease runs out and a"
                    + " reader or the writer of the next turn takes the lock; the paused writer's stale write is refused",
            readers(ProcessFaultRows::holderPausedPastItsValidity)),
    F25("read-write lock, a writer and two readers: 1, then 2 nodes stalled, then 3", HOLDS, HOLDS, 11,
            "as F3: 3 of 5 answering carry readers and writer; with 3 stalled none is granted",
            readers(NodeFaultRows::nodesStalled), Also.PROGRESS_UNDER_FAULT, Also.NO_LOCK_WITHOUT_MAJORITY),
    F26("read-write lock, a writer and two readers: kill -9 of 3 nodes and immediate restart", VIOLATED, VIOLATED, 4,
            "as F4: restarted nodes forget the readers and the writer; a writer takes the lock beside a reader, or a"
                    + " reader beside the writer; stale fenced writes are refused",
            readers(NodeFaultRows::crashAndImmediateRestart)),
    F27("read-write lock, a writer and two readers: kill -9 of 3 nodes, restart delayed 1.5×TTL", HOLDS, HOLDS, 6,
            "as F5: a delayed restart keeps readers and writer apart (SPEC R9)",
            readers(NodeFaultRows::crashAndDelayedRestart)),
    F28("read-write lock, a writer and two readers: clock +60 s (twice the holder's lease) on one node while the"
            + " holder has exactly 3 of 5",
            VIOLATED, VIOLATED, 4, "as F6: the jumped node expires the readers' entries and mark, or the writer's key,"
                    + " early; tokens keep the storage consistent",
            readers(ClockFaultRows::clockJumpOnOneOfExactlyThreeNodes)),
    F29("semaphore of 2 permits, three holders: one paused in its critical section for 2×TTL and until another worker"
            + " holds", VIOLATED, HOLDS, 6,
            "as F1a: never more than 2 valid permits, but the paused holder's permit lapses and the waiter takes it,"
                    + " so 3 work at once without fencing",
            permits(ProcessFaultRows::holderPausedPastItsValidity)),
    F30("semaphore of 2 permits, three holders: 1, then 2 nodes stalled, then 3", HOLDS, HOLDS, 11,
            "as F3: 3 of 5 answering carry the permits; with 3 stalled none is granted",
            permits(NodeFaultRows::nodesStalled), Also.PROGRESS_UNDER_FAULT, Also.NO_LOCK_WITHOUT_MAJORITY),
    F31("semaphore of 2 permits, three holders: kill -9 of 3 nodes and immediate restart", VIOLATED, VIOLATED, 4,
            "as F4: restarted nodes forget the permits, and the waiter takes a slot beside both holders",
            permits(NodeFaultRows::crashAndImmediateRestart)),
    F32("semaphore of 2 permits, three holders: kill -9 of 3 nodes, restart delayed 1.5×TTL", HOLDS, HOLDS, 6,
            "as F5: a delayed restart keeps the permits at 2 (SPEC R9)",
            permits(NodeFaultRows::crashAndDelayedRestart)),
    F33("semaphore of 2 permits, three holders: clock +60 s (twice the holder's lease) on one node while the holders"
            + " have exactly 3 of 5",
            VIOLATED, VIOLATED, 4, "as F6: the jumped node expires the permits early, and the waiter takes a slot"
                    + " beside both holders",
            permits(ClockFaultRows::clockJumpOnOneOfExactlyThreeNodes)),
    F34("connections to 2 nodes reset again and again while acquisitions are in flight; a node that refuses an"
            + " acquire because our value is there already", HOLDS, HOLDS, 5,
            "commands in flight fail, and Lettuce sends one whose write failed again after reconnecting, which is"
                    + " refused where its first copy landed; the release deletes on every node the acquire was sent"
                    + " to, whatever it answered (SPEC R7): no key outlives it (asserted with a 60 s key)",
            NetworkFaultRows::connectionsReset, Also.NO_KEY_LEFT),
    F35("a burst of 10,000 releases, twice, from a client whose watchdog keeps 30 leases alive (TTL 3 s, per-node"
            + " timeout 100 ms)", HOLDS, HOLDS, 4,
            "deletes are paced per connection (at most 256 on their way) and the extension rounds due meanwhile pass"
                    + " them; no kept lease is lost (asserted)",
            LoadFaultRows::burstOfReleases, Also.KEPT_LEASES_SURVIVE),
    F36("a re-entrant Lock's lease lost inside its critical section: a fixed lease that runs out while the holder"
            + " stalls, then a kept-alive one while 3 nodes are stopped (SIGSTOP) past its validity", HOLDS, HOLDS, 6,
            "a worker takes the lock and writes; the holder's nested lock() then throws LeaseLostException with the"
                    + " loss reason, currentLease() stays the lost lease, and the write it computed from its stale"
                    + " read is refused; only after its last unlock() does it lock afresh (asserted)",
            ApiLayerFaultRows::nestedLockAfterLoss, Also.BROKEN_UNTIL_UNWOUND),
    F37("minimum holds (releaseAfter) of 1 ms to 3 node timeouts while 2 nodes answer late, and while 3 answer the"
            + " re-expiry late", HOLDS, HOLDS, 4,
            "the key is re-expired on every node that holds it, no majority needed, and never deleted: no node drops"
                    + " it and no other client gets the lock before the minimum has passed (asserted)",
            ApiLayerFaultRows::minimumHolds, Also.MIN_HOLD_KEPT);

    /** Properties a row's scenario asserts beyond the histories' checks. */
    enum Also {
        /** Progress while the fault lasts (not only after it healed). */
        PROGRESS_UNDER_FAULT,
        /** No acquisition succeeds while a majority of the nodes is unreachable, stalled or mute. */
        NO_LOCK_WITHOUT_MAJORITY,
        /** An acquisition whose elapsed time reaches TTL − drift is refused, never a false success. */
        REFUSED_PAST_VALIDITY,
        /** The keys of a failed or refused attempt are gone from every node afterwards. */
        NO_KEY_LEFT,
        /** An extension counts only with a majority, and never re-creates an expired key. */
        EXTEND_NEEDS_MAJORITY,
        /** Fencing counters expired on every node, and every later token is above every earlier one. */
        TOKENS_RISE_ACROSS_EXPIRY,
        /** Leases the watchdog keeps alive meanwhile are never lost. */
        KEPT_LEASES_SURVIVE,
        /** After a loss, nested calls of the losing thread throw until it unwound, and its stale write is refused. */
        BROKEN_UNTIL_UNWOUND,
        /** No node drops a minimum hold's key, and no other client gets the lock, before the minimum has passed. */
        MIN_HOLD_KEPT
    }

    /** {@code scenario} with workloads that mix locks of several resources with plain ones; both must have held. */
    private static Scenario several(Scenario scenario) {
        return mixed(scenario, RowBench::takeSeveral, w -> w.record.severalAcquisitions, "locks of several resources");
    }

    /** {@code scenario} with workloads of a writer and two readers of a read-write lock; both must have held. */
    private static Scenario readers(Scenario scenario) {
        return mixed(scenario, RowBench::takeReaders, w -> w.record.readerAcquisitions, "read locks");
    }

    /** {@code scenario} with workloads of three holders of a semaphore's two permits; permits must have held. */
    private static Scenario permits(Scenario scenario) {
        return bench -> {
            bench.takePermits();
            Measured measured = scenario.run(bench);
            assertThat(measured.workload().record.permitAcquisitions).as("permits held").hasPositiveValue();
            return measured;
        };
    }

    /**
     * {@code scenario} with the bench's workloads set up by {@code setUp} to mix a second kind of lock in; both the
     * second kind ({@code ofKind} counts its acquisitions, {@code kind} names it) and the first must have held.
     */
    private static Scenario mixed(Scenario scenario, java.util.function.Consumer<RowBench> setUp,
            java.util.function.Function<Workload, java.util.concurrent.atomic.AtomicInteger> ofKind, String kind) {
        return bench -> {
            setUp.accept(bench);
            Measured measured = scenario.run(bench);
            Workload w = measured.workload();
            assertThat(ofKind.apply(w)).as("%s held", kind).hasPositiveValue();
            assertThat(w.record.acquisitions.get() - ofKind.apply(w).get()).as("the other locks held").isPositive();
            return measured;
        };
    }

    /** What a row does: injects its fault into a workload on the bench's nodes, asserting what happens meanwhile. */
    @FunctionalInterface
    interface Scenario {
        Measured run(RowBench bench) throws Exception;
    }

    final String fault;
    final Expect criticalSections;
    final Expect validity;
    final int atLeast;
    final String explanation;
    final Scenario scenario;
    final Set<Also> also;

    FaultRow(String fault, Expect criticalSections, Expect validity, int atLeast, String explanation,
            Scenario scenario, Also... also) {
        this.fault = fault;
        this.criticalSections = criticalSections;
        this.validity = validity;
        this.atLeast = atLeast;
        this.explanation = explanation;
        this.scenario = scenario;
        this.also = also.length == 0 ? EnumSet.noneOf(Also.class) : EnumSet.copyOf(Arrays.asList(also));
    }

    /** The row's id as in the table: F0, F1a, F7b... */
    String id() {
        return name();
    }

    /** The checks of this row's histories. */
    Row check() {
        return Row.of(id(), fault).criticalSections(criticalSections).validity(validity).atLeast(atLeast)
                .because(explanation);
    }

    @Override
    public String toString() {
        return id() + " " + fault;
    }
}
