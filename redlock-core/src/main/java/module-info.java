/**
 * Redlock distributed locks on Redis. The API is {@code io.redlock}, with {@code io.redlock.fencing} (checks at the
 * protected storage) and {@code io.redlock.reactive} (Reactor); {@code io.redlock.internal} is not exported.
 */
module io.redlock.core {
    requires transitive lettuce.core;
    requires io.netty.buffer;
    requires io.netty.common;
    requires org.slf4j;
    requires transitive java.sql;
    requires transitive reactor.core;
    requires transitive org.reactivestreams;

    exports io.redlock;
    exports io.redlock.fencing;
    exports io.redlock.reactive;
}
