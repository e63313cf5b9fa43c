package io.redlock.testkit;

import static io.redlock.testkit.ProxyItSupport.DELAY;
import static io.redlock.testkit.ProxyItSupport.HOST;
import static io.redlock.testkit.ProxyItSupport.PATIENCE;
import static io.redlock.testkit.ProxyItSupport.POLL;
import static io.redlock.testkit.ProxyItSupport.SILENCE;
import static io.redlock.testkit.ProxyItSupport.UNIT;
import static io.redlock.testkit.ProxyItSupport.connect;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.lettuce.core.RedisCommandTimeoutException;
import io.lettuce.core.api.StatefulRedisConnection;
import java.io.IOException;
import java.net.SocketException;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The faults a {@link TcpProxy} injects: delay, dropped replies, blackhole, reset; and how each heals. */
class TcpProxyFaultsIT extends ProxyFixture {

    @Test
    void delayAddsLatencyEachWayAndKeepsTheOrderOfBytes() throws Exception {
        try (TcpProxy proxy = TcpProxy.start(HOST, server.port()); RawClient raw = RawClient.open(proxy)) {
            assertThat(raw.call("PING")).isEqualTo("+PONG");

            proxy.delay(DELAY);
            assertThat(roundTrip(raw)).isGreaterThanOrEqualTo(DELAY.multipliedBy(2));

            // bytes read under a long delay are not overtaken by bytes read after the delay was shortened; whether the
            // proxy read the SET before the delay changed is known only afterwards (the SET took the long delay), so
            // the order is checked in every try and the tries go on until one had the SET read under the long delay
            boolean readUnderTheLongDelay = false;
            for (int attempt = 0; attempt < 5 && !readUnderTheLongDelay; attempt++) {
                String key = "delay:order:" + attempt;
                proxy.delay(DELAY.multipliedBy(3));
                long sent = System.nanoTime();
                raw.send("SET " + key + " first");
                Thread.sleep(UNIT.toMillis()); // the proxy reads the SET meanwhile, unless it is not scheduled
                proxy.delay(Duration.ZERO);
                raw.send("APPEND " + key + " -second");
                assertThat(raw.line()).isEqualTo("+OK");
                assertThat(raw.line()).isEqualTo(":12");
                assertThat(server.get(key)).isEqualTo("first-second");
                readUnderTheLongDelay = Duration.ofNanos(System.nanoTime() - sent)
                        .compareTo(DELAY.multipliedBy(3)) >= 0;
            }
            assertThat(readUnderTheLongDelay).as("a try whose SET was read under the long delay").isTrue();

            proxy.delay(DELAY);
            assertThat(roundTrip(raw)).isGreaterThanOrEqualTo(DELAY.multipliedBy(2));
            proxy.heal();
            await().atMost(PATIENCE).pollInterval(POLL).until(() -> roundTrip(raw).compareTo(DELAY) < 0);
        }
    }

    @Test
    void dropRepliesAppliesCommandsButLosesTheirReplies() throws Exception {
        try (TcpProxy proxy = TcpProxy.start(HOST, server.port());
                StatefulRedisConnection<String, String> connection = connect(lettuce, proxy);
                RawClient raw = RawClient.open(proxy)) {
            assertThat(raw.call("PING")).isEqualTo("+PONG");
            proxy.dropReplies(true);

            assertThatThrownBy(() -> connection.sync().set("drop:lettuce", "applied"))
                    .isInstanceOf(RedisCommandTimeoutException.class);
            await().atMost(PATIENCE).pollInterval(POLL).until(() -> "applied".equals(server.get("drop:lettuce")));

            raw.send("SET drop:raw applied");
            await().atMost(PATIENCE).pollInterval(POLL).until(() -> "applied".equals(server.get("drop:raw")));
            raw.expectSilence(SILENCE);
            assertThat(proxy.connections()).isEqualTo(2);

            proxy.heal();
            // the dropped +OK was discarded, not held back: the first reply now is the new command's
            assertThat(raw.call("ECHO after-heal")).isEqualTo("$10");
            assertThat(raw.line()).isEqualTo("after-heal");
            try (StatefulRedisConnection<String, String> fresh = connect(lettuce, proxy)) {
                assertThat(fresh.sync().set("drop:healed", "yes")).isEqualTo("OK");
                assertThat(fresh.sync().get("drop:healed")).isEqualTo("yes");
            }
        }
    }

    @Test
    void blackholeForwardsNothingUntilHealedThenDeliversWhatWasHeldInOrder() throws Exception {
        try (TcpProxy proxy = TcpProxy.start(HOST, server.port());
                StatefulRedisConnection<String, String> connection = connect(lettuce, proxy);
                RawClient raw = RawClient.open(proxy)) {
            assertThat(raw.call("PING")).isEqualTo("+PONG");
            proxy.blackhole(true);

            assertThatThrownBy(() -> connection.sync().set("bh:lettuce", "held"))
                    .isInstanceOf(RedisCommandTimeoutException.class);
            raw.send("SET bh:raw held");
            raw.expectSilence(SILENCE);
            assertThat(proxy.connections()).isEqualTo(2);
            assertThat(server.get("bh:lettuce")).isNull();
            assertThat(server.get("bh:raw")).isNull();

            proxy.heal();
            // like a partition under TCP, nothing was lost: the held SET arrives now and its reply comes first
            assertThat(raw.call("ECHO after-heal")).isEqualTo("+OK");
            assertThat(raw.line()).isEqualTo("$10");
            assertThat(raw.line()).isEqualTo("after-heal");
            assertThat(server.get("bh:raw")).isEqualTo("held");
            await().atMost(SILENCE.multipliedBy(10)).until(() -> "held".equals(server.get("bh:lettuce")));
            try (StatefulRedisConnection<String, String> fresh = connect(lettuce, proxy)) {
                assertThat(fresh.sync().set("bh:healed", "yes")).isEqualTo("OK");
                assertThat(server.get("bh:healed")).isEqualTo("yes");
            }
        }
    }

    @Test
    void resetAbortsOpenConnectionsAndAcceptsNewOnes() throws Exception {
        try (TcpProxy proxy = TcpProxy.start(HOST, server.port());
                StatefulRedisConnection<String, String> connection = connect(lettuce, proxy);
                RawClient raw = RawClient.open(proxy)) {
            assertThat(raw.call("PING")).isEqualTo("+PONG");
            assertThat(connection.sync().ping()).isEqualTo("PONG");
            assertThat(proxy.connections()).isEqualTo(2);

            proxy.reset();

            assertThatThrownBy(raw::line).isInstanceOf(SocketException.class).hasMessageContaining("reset");
            try (RawClient again = RawClient.open(proxy)) {
                assertThat(again.call("PING")).isEqualTo("+PONG");
            }
            // Lettuce reconnects on its own through the proxy
            await().atMost(PATIENCE).pollInterval(POLL).ignoreExceptions()
                    .until(() -> "PONG".equals(connection.sync().ping()));
        }
    }

    private static Duration roundTrip(RawClient raw) throws IOException {
        long start = System.nanoTime();
        assertThat(raw.call("PING")).isEqualTo("+PONG");
        return Duration.ofNanos(System.nanoTime() - start);
    }
}
