package io.redlock.internal;

import java.util.List;

/**
 * The Lua scripts of the algorithm, each a resource file under {@code io/redlock/internal/lua/} whose header says
 * what it does, its KEYS and ARGV, and its reply. Each runs atomically on one node.
 */
final class Scripts {

    /** Message prefix of a holder's release (then the lease value): the lock is free now. */
    static final String RELEASED_BY_HOLDER = "r:";
    /** Message prefix of the clean-up after a failed attempt (then its value): contenders collided. */
    static final String RELEASED_BY_CLEANUP = "c:";
    /** Ends a release message's event; what follows names the first waiter in the node's queue ("" if none). */
    static final char FIRST_WAITER = '>';
    /** Compare-and-delete, then the release message: {@code lua/release.lua}. */
    static final Script RELEASE = withRules("release", "announce");

    /** Compare-and-PEXPIRE: {@code lua/extend.lua}. */
    static final Script EXTEND = Script.load("extend");

    /** Lock, then increment the counter, with the waiter queue: {@code lua/acquire-fenced.lua}. */
    static final Script ACQUIRE_FENCED = withRules("acquire-fenced", "fence-counter", "queue", "shared");

    /** Leaves the waiter queue: {@code lua/leave-queue.lua}. */
    static final Script LEAVE_QUEUE = Script.load("leave-queue");

    /** Raises the counter to the chosen token: {@code lua/commit-fence.lua}. */
    static final Script COMMIT_FENCE = withFenceCounter("commit-fence");

    /** The locks of several resources at once, all or none, one token: {@code lua/acquire-all.lua}. */
    static final Script ACQUIRE_ALL = withRules("acquire-all", "fence-counter", "shared");

    /** Raises the counters of several resources to the chosen token, all or none: {@code lua/commit-all.lua}. */
    static final Script COMMIT_ALL = withFenceCounter("commit-all");

    /** A read lock, then the counter: {@code lua/acquire-read.lua}. */
    static final Script ACQUIRE_READ = withRules("acquire-read", "fence-counter", "queue", "shared");

    /** A permit of a semaphore (one of its slots), then the counter: {@code lua/acquire-permit.lua}. */
    static final Script ACQUIRE_PERMIT = withRules("acquire-permit", "fence-counter", "shared");

    /** A reader's or permit holder's commit of the chosen token: {@code lua/commit-shared.lua}. */
    static final Script COMMIT_SHARED = withRules("commit-shared", "fence-counter", "shared");

    /** A reader's or permit holder's extension: {@code lua/extend-shared.lua}. */
    static final Script EXTEND_SHARED = withRules("extend-shared", "shared");

    /** A reader or permit holder leaves: {@code lua/release-shared.lua}. */
    static final Script RELEASE_SHARED = withRules("release-shared", "shared", "announce");

    /** The scripts a node runs for lock operations, each alone or in a {@link ScriptBatch}. */
    static final List<Script> ALL = List.of(RELEASE, EXTEND, ACQUIRE_FENCED, COMMIT_FENCE, LEAVE_QUEUE, ACQUIRE_ALL,
            COMMIT_ALL, ACQUIRE_READ, ACQUIRE_PERMIT, COMMIT_SHARED, EXTEND_SHARED, RELEASE_SHARED);

    /** Runs of the scripts of {@link #ALL} in one call: {@code lua/batch.lua} behind the table of those scripts. */
    static final Script BATCH = Script.of("batch", ScriptBatch.opsTable(ALL) + Script.load("batch").text());

    /** What a connection loads when it opens: the scripts and the batch that carries them. */
    static final List<Script> LOADED = List.of(RELEASE, EXTEND, ACQUIRE_FENCED, COMMIT_FENCE, LEAVE_QUEUE,
            ACQUIRE_ALL, COMMIT_ALL, ACQUIRE_READ, ACQUIRE_PERMIT, COMMIT_SHARED, EXTEND_SHARED, RELEASE_SHARED, BATCH);

    private Scripts() {
    }

    /** The script {@code lua/<name>.lua} behind {@code lua/fence-counter.lua}, the counter's rules it uses. */
    private static Script withFenceCounter(String name) {
        return withRules(name, "fence-counter");
    }

    /** The script {@code lua/<name>.lua} behind the rules it uses ({@code lua/<rule>.lua}, in this order). */
    private static Script withRules(String name, String... rules) {
        StringBuilder text = new StringBuilder();
        for (String rule : rules) {
            text.append(Script.load(rule).text());
        }
        return Script.of(name, text.append(Script.load(name).text()).toString());
    }
}
