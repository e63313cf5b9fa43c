package io.redlock.internal;

import java.util.List;

/** The Lua scripts of the algorithm. Each runs atomically on one node. */
final class Scripts {


    /** Message prefix of a holder's release (then the lease value): the lock is free now. */
    static final String RELEASED_BY_HOLDER = "r:";
    /** Message prefix of the clean-up after a failed attempt (then its value): contenders collided. */
    static final String RELEASED_BY_CLEANUP = "c:";
    /**
     * SPEC S3/R7: delete the key only if it still holds our value, and then tell waiters on {@code <key>:released}
     * whether a holder released or a failed attempt cleaned up, and which value (every node sends its own copy). With
     * fencing every waiter queues, so the message is sent only while someone is queued: no cost when nobody waits.
     * KEYS[1]=key, KEYS[2]=its waiter queue, ARGV[1]=value, ARGV[2]=message, ARGV[3]="1" to publish only while the
     * queue exists, ARGV[4]=the channel ({@link Keys#released()}). Returns 1 or 0.
     */
    static final Script RELEASE = Script.of("release", """
            if redis.call('get', KEYS[1]) == ARGV[1] then
              redis.call('del', KEYS[1])
              if ARGV[3] ~= '1' or redis.call('exists', KEYS[2]) == 1 then
                redis.call('publish', ARGV[4], ARGV[2])
              end
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
     * FENCING.md step 1, with a fair queue of waiters: take the lock and, only then, increment the node's counter.
     * <p>
     * KEYS[1]=lock key, KEYS[2]=counter key, KEYS[3]=waiter queue (sorted set: waiter id by ticket), KEYS[4]=the
     * waiters' deadlines (sorted set: waiter id by the node's clock in ms). ARGV[1]=value, ARGV[2]=ttl in ms,
     * ARGV[3]="1" to apply the clock floor (raise the counter to unix_seconds × 2^20 first, kept below 2^53),
     * ARGV[4]=waiter id ("" for a caller that will not wait), ARGV[5]=the caller's ticket (0 if it has none yet),
     * ARGV[6]=how long a waiter's place lasts without a new attempt, in ms.
     * <p>
     * A caller that will not wait takes a free lock whoever is queued (it barges, like the untimed {@code tryLock()}
     * of a fair {@code java.util.concurrent} lock) and never touches the queue. For a waiter, places that lapsed are
     * dropped first, and a free lock goes to it only if it is the first live waiter. A refused waiter keeps (or takes)
     * its place: the larger of its ticket here and ARGV[5], else one
     * after the last waiter; tickets stop at 2^20 - 1, where waiters are ordered by id. On success removes the caller
     * from the queue. Returns the new counter; a refused caller that does not wait gets minus the holder's remaining
     * ms (0 if none or unknown); a refused waiter gets {@code -(2^52 + ticket × 2^32 + remaining ms)}
     * ({@link FencedReply} decodes it).
     */
    static final Script ACQUIRE_FENCED = Script.of("acquire-fenced", """
            local waiter = ARGV[4]
            local now = nil
            local function clock()
              if not now then
                local t = redis.call('time')
                now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
              end
              return now
            end
            local queue = waiter ~= '' and redis.call('exists', KEYS[3]) == 1
            local behind = false
            if queue then
              local lapsed = redis.call('zrangebyscore', KEYS[4], '-inf', '(' .. clock(), 'LIMIT', 0, 100)
              for _, id in ipairs(lapsed) do
                redis.call('zrem', KEYS[3], id)
                redis.call('zrem', KEYS[4], id)
              end
              local head = redis.call('zrange', KEYS[3], 0, 0)[1]
              queue = head ~= nil
              behind = queue and head ~= waiter
            end
            if not behind and redis.call('set', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
              if queue then
                redis.call('zrem', KEYS[3], waiter)
                redis.call('zrem', KEYS[4], waiter)
              end
              if ARGV[3] == '1' then
                local floor = tonumber(redis.call('time')[1]) * 1048576
                local current = tonumber(redis.call('get', KEYS[2]) or '0')
                if current < floor and floor < 9007199254740992 then
                  redis.call('set', KEYS[2], string.format('%d', floor))
                end
              end
              return redis.call('incr', KEYS[2])
            end
            local pttl = math.max(redis.call('pttl', KEYS[1]), 0)
            if waiter == '' then
              return -pttl
            end
            local ticket = math.max(tonumber(redis.call('zscore', KEYS[3], waiter) or '0'), tonumber(ARGV[5]))
            if ticket == 0 then
              local last = redis.call('zrange', KEYS[3], -1, -1, 'WITHSCORES')[2]
              ticket = tonumber(last or '0') + 1
            end
            ticket = math.min(ticket, 1048575)
            local lifetime = tonumber(ARGV[6])
            redis.call('zadd', KEYS[3], ticket, waiter)
            redis.call('zadd', KEYS[4], clock() + lifetime, waiter)
            if redis.call('pttl', KEYS[3]) < lifetime then
              redis.call('pexpire', KEYS[3], lifetime)
              redis.call('pexpire', KEYS[4], lifetime)
            end
            return -(4503599627370496 + ticket * 4294967296 + math.min(pttl, 4294967295))
            """);

    /** Leaves the waiter queue. KEYS[1]=queue, KEYS[2]=deadlines, ARGV[1]=waiter id. Returns 1 if it was queued. */
    static final Script LEAVE_QUEUE = Script.of("leave-queue", """
            redis.call('zrem', KEYS[2], ARGV[1])
            return redis.call('zrem', KEYS[1], ARGV[1])
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

    static final List<Script> ALL = List.of(RELEASE, EXTEND, ACQUIRE_FENCED, COMMIT_FENCE, LEAVE_QUEUE);

    private Scripts() {
    }
}
