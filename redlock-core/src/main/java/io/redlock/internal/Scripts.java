package io.redlock.internal;

import java.util.List;

/** The Lua scripts of the algorithm. Each runs atomically on one node. */
final class Scripts {

    /** Suffix of the channel a release publishes on, so waiters wake at once: {@code <key>:released}. */
    static final String RELEASED_SUFFIX = ":released";

    /** Message prefix of a holder's release (then the lease value): the lock is free now. */
    static final String RELEASED_BY_HOLDER = "r:";
    /** Message prefix of the clean-up after a failed attempt (then its value): contenders collided. */
    static final String RELEASED_BY_CLEANUP = "c:";
    /** Message prefix of a successful fenced acquisition (then its value): waiters about to try can stand down. */
    static final String ACQUIRED = "a:";

    /**
     * SPEC S3/R7: delete the key only if it still holds our value, and then tell waiters on {@code <key>:released}
     * whether a holder released or a failed attempt cleaned up, and which value (every node sends its own copy).
     * KEYS[1]=key, ARGV[1]=value, ARGV[2]=message.
     * Returns 1 or 0.
     */
    static final Script RELEASE = Script.of("release", """
            if redis.call('get', KEYS[1]) == ARGV[1] then
              redis.call('del', KEYS[1])
              redis.call('publish', KEYS[1] .. ':released', ARGV[2])
              return 1
            end
            return 0
            """);

    /**
     * SPEC R8: set a new TTL only if the key still holds our value; never re-creates an expired key.
     * KEYS[1]=key, ARGV[1]=value, ARGV[2]=ttl in ms. Returns 1 or 0.
     */
    static final Script EXTEND = Script.of("extend", """
            if redis.call('get', KEYS[1]) == ARGV[1] then
              return redis.call('pexpire', KEYS[1], ARGV[2])
            end
            return 0
            """);

    /**
     * FENCING.md step 1: take the lock and, only then, increment the node's counter for the resource.
     * KEYS[1]=lock key, KEYS[2]=counter key, ARGV[1]=value, ARGV[2]=ttl in ms, ARGV[3]="1" to apply the clock floor
     * (raise the counter to unix_seconds × 2^20 first, kept below 2^53). On success tells waiters on
     * {@code <key>:released} ({@code a:<value>}). Returns the new counter, or, if the lock is held, minus the holder's
     * remaining milliseconds (0 if unknown).
     */
    static final Script ACQUIRE_FENCED = Script.of("acquire-fenced", """
            if not redis.call('set', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
              return -math.max(redis.call('pttl', KEYS[1]), 0)
            end
            if ARGV[3] == '1' then
              local floor = tonumber(redis.call('time')[1]) * 1048576
              local current = tonumber(redis.call('get', KEYS[2]) or '0')
              if current < floor and floor < 9007199254740992 then
                redis.call('set', KEYS[2], string.format('%d', floor))
              end
            end
            redis.call('publish', KEYS[1] .. ':released', 'a:' .. ARGV[1])
            return redis.call('incr', KEYS[2])
            """);

    /**
     * FENCING.md step 3: raise the counter to the chosen token T while we hold the lock here, refusing if a grant we
     * never saw already raised it past T. KEYS[1]=lock key, KEYS[2]=counter key, ARGV[1]=value, ARGV[2]=T.
     * Returns 1 (committed), 0 (we do not hold the lock here) or -1 (counter above T).
     */
    static final Script COMMIT_FENCE = Script.of("commit-fence", """
            if redis.call('get', KEYS[1]) ~= ARGV[1] then
              return 0
            end
            local current = tonumber(redis.call('get', KEYS[2]) or '0')
            local token = tonumber(ARGV[2])
            if current > token then
              return -1
            end
            if current < token then
              redis.call('set', KEYS[2], ARGV[2])
            end
            return 1
            """);

    static final List<Script> ALL = List.of(RELEASE, EXTEND, ACQUIRE_FENCED, COMMIT_FENCE);

    private Scripts() {
    }
}
