package io.redlock.internal.protocol;

import io.redlock.internal.node.Script;
import io.redlock.internal.node.ScriptBatch;
import java.util.Arrays;
import java.util.List;

/**
 * The Lua scripts of the algorithm, each a resource file under {@code io/redlock/internal/protocol/lua/} whose header says
 * what it does, its KEYS and ARGV, and its reply. Each runs atomically on one node.
 *
 * <p>Each script's ARGV are one request type, next to the script here: a record whose components are the arguments
 * the header names — {@code ARGV[n] name}, opening a header line or after a gap of spaces; {@code ARGV[n..] name}, a
 * list that takes the rest — in that order, and whose {@code argv()} is what the node is sent (ScriptsTest holds each
 * request to its script's header). Scripts whose ARGV are the same share one. A number of the call is written out by
 * {@code argv()}; the configuration's are written out once per engine ({@link ScriptSettings}).
 */
public final class Scripts {

    /** Message prefix of a holder's release (then the lease value): the lock is free now. */
    public static final String RELEASED_BY_HOLDER = "r:";
    /** Message prefix of the clean-up after a failed attempt (then its value): contenders collided. */
    public static final String RELEASED_BY_CLEANUP = "c:";
    /** Ends a release message's event; what follows names the first waiter in the node's queue ("" if none). */
    public static final char FIRST_WAITER = '>';
    /** Compare-and-delete, then the release message: {@code lua/release.lua}. ARGV: {@link Release}. */
    static final Script RELEASE = withRules("release", "announce");

    /**
     * ARGV of {@link #RELEASE} and {@link #RELEASE_SHARED}: the value, the release message (a prefix, then the value),
     * whether to publish only while someone is queued, whether only while someone subscribes to the channel (not on
     * a Redis Cluster, whose nodes do not count each other's subscribers), and the release channel of each resource,
     * in the order of the keys.
     */
    public record Release(String value, String message, boolean onlyQueued, boolean onlyHeard, List<String> channels) {

        public Release {
            channels = List.copyOf(channels);
        }

        public String[] argv() {
            String[] argv = new String[4 + channels.size()];
            argv[0] = value;
            argv[1] = message;
            argv[2] = flag(onlyQueued);
            argv[3] = flag(onlyHeard);
            for (int i = 0; i < channels.size(); i++) {
                argv[4 + i] = channels.get(i);
            }
            return argv;
        }
    }

    /** Compare-and-PEXPIRE: {@code lua/extend.lua}. ARGV: {@link Extend}. */
    static final Script EXTEND = load("extend");

    /** ARGV of {@link #EXTEND} and {@link #EXTEND_SHARED}: the value, and the TTL from now. */
    public record Extend(String value, long ttlMillis) {

        public String[] argv() {
            return new String[] {value, Long.toString(ttlMillis)};
        }
    }

    /**
     * Lock, then increment the counter, with the waiter queue: {@code lua/acquire-fenced.lua}. ARGV:
     * {@link AcquireFenced}.
     */
    public static final Script ACQUIRE_FENCED = withRules("acquire-fenced", "clock", "fence-grant", "queue", "marks");

    /**
     * ARGV of {@link #ACQUIRE_FENCED}: the value and TTL, the clock floor, how long the counter lives, and a waiter's
     * place in the queue (its id, ticket, and how long a place lasts), none for a caller that will not wait.
     */
    record AcquireFenced(String value, long ttlMillis, boolean clockFloor, String counterTtl, List<String> place) {

        AcquireFenced {
            place = List.copyOf(place);
        }

        /** A waiter's acquire: its place is its id, the largest ticket a node gave it (0 if none), its lifetime. */
        static AcquireFenced waiting(String value, long ttlMillis, boolean clockFloor, String counterTtl,
                String waiterId, long ticket, String placeLifetime) {
            return new AcquireFenced(value, ttlMillis, clockFloor, counterTtl,
                    List.of(waiterId, Long.toString(ticket), placeLifetime));
        }

        public String[] argv() {
            String[] argv = new String[4 + place.size()];
            argv[0] = value;
            argv[1] = Long.toString(ttlMillis);
            argv[2] = flag(clockFloor);
            argv[3] = counterTtl;
            for (int i = 0; i < place.size(); i++) {
                argv[4 + i] = place.get(i);
            }
            return argv;
        }
    }

    /** Leaves the waiter queue: {@code lua/leave-queue.lua}. ARGV: {@link LeaveQueue}. */
    public static final Script LEAVE_QUEUE = load("leave-queue");

    /** ARGV of {@link #LEAVE_QUEUE}: the waiter's id. */
    public record LeaveQueue(String waiterId) {

        public String[] argv() {
            return new String[] {waiterId};
        }
    }

    /** Raises the counter to the chosen token: {@code lua/commit-fence.lua}. ARGV: {@link Commit}. */
    public static final Script COMMIT_FENCE = withFenceCounter("commit-fence");

    /**
     * ARGV of {@link #COMMIT_FENCE} and {@link #COMMIT_ALL}: the value, the chosen token T, the clock floor, and how
     * long the counters live.
     */
    record Commit(String value, long token, boolean clockFloor, String counterTtl) {

        public String[] argv() {
            return new String[] {value, Long.toString(token), flag(clockFloor), counterTtl};
        }
    }

    /**
     * The locks of several resources at once, all or none, one token: {@code lua/acquire-all.lua}. ARGV:
     * {@link Acquire}.
     */
    static final Script ACQUIRE_ALL = withRules("acquire-all", "clock", "fence-grant", "fence-counter", "marks");

    /**
     * ARGV of {@link #ACQUIRE_ALL} and {@link #ACQUIRE_READ}, acquires that take no place in the queue: the value and
     * TTL, whether the counters move (fencing), the clock floor, and how long the counters live.
     */
    record Acquire(String value, long ttlMillis, boolean fencing, boolean clockFloor, String counterTtl) {

        public String[] argv() {
            return new String[] {value, Long.toString(ttlMillis), flag(fencing), flag(clockFloor), counterTtl};
        }
    }

    /**
     * Raises the counters of several resources to the chosen token, all or none: {@code lua/commit-all.lua}. ARGV:
     * {@link Commit}.
     */
    static final Script COMMIT_ALL = withFenceCounter("commit-all");

    /** A read lock, then the counter: {@code lua/acquire-read.lua}. ARGV: {@link Acquire}. */
    static final Script ACQUIRE_READ = withRules("acquire-read", "clock", "fence-grant", "queue", "marks", "shared");

    /**
     * A permit of a semaphore (one of its slots), then the counter: {@code lua/acquire-permit.lua}. ARGV:
     * {@link AcquirePermit}.
     */
    static final Script ACQUIRE_PERMIT = withRules("acquire-permit", "clock", "fence-grant", "marks", "shared");

    /** ARGV of {@link #ACQUIRE_PERMIT}: those of an {@link Acquire}, then the semaphore's permits. */
    record AcquirePermit(String value, long ttlMillis, boolean fencing, boolean clockFloor, String counterTtl,
            int permits) {

        public String[] argv() {
            return new String[] {value, Long.toString(ttlMillis), flag(fencing), flag(clockFloor), counterTtl,
                    Integer.toString(permits)};
        }
    }

    /**
     * A reader's or permit holder's commit of the chosen token: {@code lua/commit-shared.lua}. ARGV:
     * {@link CommitShared}.
     */
    static final Script COMMIT_SHARED = withRules("commit-shared", "clock", "fence-grant", "fence-counter", "marks",
            "shared");

    /** ARGV of {@link #COMMIT_SHARED}: those of a {@link Commit}, then whether a counter already at T is refused. */
    record CommitShared(String value, long token, boolean clockFloor, String counterTtl, boolean strict) {

        public String[] argv() {
            return new String[] {value, Long.toString(token), flag(clockFloor), counterTtl, flag(strict)};
        }
    }

    /** A reader's or permit holder's extension: {@code lua/extend-shared.lua}. ARGV: {@link Extend}. */
    static final Script EXTEND_SHARED = withRules("extend-shared", "clock", "marks", "shared");

    /** A reader or permit holder leaves: {@code lua/release-shared.lua}. ARGV: {@link Release}. */
    static final Script RELEASE_SHARED = withRules("release-shared", "clock", "marks", "shared", "announce");

    /** The scripts a node runs for lock operations, each alone or in a batch. */
    static final List<Script> ALL = List.of(RELEASE, EXTEND, ACQUIRE_FENCED, COMMIT_FENCE, LEAVE_QUEUE, ACQUIRE_ALL,
            COMMIT_ALL, ACQUIRE_READ, ACQUIRE_PERMIT, COMMIT_SHARED, EXTEND_SHARED, RELEASE_SHARED);

    /** Runs of the scripts of {@link #ALL} in one call. */
    public static final ScriptBatch BATCH = ScriptBatch.of(ALL);

    private Scripts() {
    }

    /** A flag as the scripts take it: "1" or "0". */
    private static String flag(boolean on) {
        return on ? "1" : "0";
    }

    /**
     * The script {@code lua/<name>.lua} behind the counter's rules it uses: {@code lua/clock.lua},
     * {@code lua/fence-grant.lua}, {@code lua/fence-counter.lua}.
     */
    private static Script withFenceCounter(String name) {
        return withRules(name, "clock", "fence-grant", "fence-counter");
    }

    /** The script {@code lua/<name>.lua} behind the rules it uses ({@code lua/<rule>.lua}, in this order). */
    private static Script withRules(String name, String... rules) {
        return Script.withRules(name, Arrays.stream(rules).map(Scripts::load).toList(), load(name).text());
    }

    /** The script in the resource {@code lua/<name>.lua} next to this class. */
    static Script load(String name) {
        return Script.load(Scripts.class, name);
    }
}
