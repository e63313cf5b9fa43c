package io.redlock.internal;

import java.util.List;

/** The Lua scripts of the algorithm. Each runs atomically on one node. */
final class Scripts {

    /** SPEC S3/R7: delete the key only if it still holds our value. KEYS[1]=key, ARGV[1]=value. Returns 1 or 0. */
    static final Script RELEASE = Script.of("release", """
            if redis.call('get', KEYS[1]) == ARGV[1] then
              return redis.call('del', KEYS[1])
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

    static final List<Script> ALL = List.of(RELEASE, EXTEND);

    private Scripts() {
    }
}
