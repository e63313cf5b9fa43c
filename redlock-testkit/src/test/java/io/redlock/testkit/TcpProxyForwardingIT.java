package io.redlock.testkit;

import static io.redlock.testkit.ProxyItSupport.DELAY;
import static io.redlock.testkit.ProxyItSupport.HOST;
import static io.redlock.testkit.ProxyItSupport.PATIENCE;
import static io.redlock.testkit.ProxyItSupport.POLL;
import static io.redlock.testkit.ProxyItSupport.connect;
import static io.redlock.testkit.ProxyItSupport.proxyThreads;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.lettuce.core.api.StatefulRedisConnection;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import org.junit.jupiter.api.Test;

/** A healthy {@link TcpProxy} forwards bytes both ways, and ends its connections, threads and port when it closes. */
class TcpProxyForwardingIT extends ProxyFixture {

    @Test
    void forwardsCommandsAndRepliesBothWays() {
        String big = "x".repeat(300_000) + "end"; // many chunks each way, which must stay in order
        try (TcpProxy proxy = TcpProxy.start(HOST, server.port());
                StatefulRedisConnection<String, String> connection = connect(lettuce, proxy)) {
            assertThat(proxy.uri()).isEqualTo("redis://127.0.0.1:" + proxy.port());
            assertThat(proxy.address()).isEqualTo("127.0.0.1:" + proxy.port());
            assertThat(proxy.port()).isNotEqualTo(server.port());

            assertThat(connection.sync().set("fwd:small", "v")).isEqualTo("OK");
            assertThat(connection.sync().get("fwd:small")).isEqualTo("v");
            assertThat(connection.sync().set("fwd:big", big)).isEqualTo("OK");
            assertThat(connection.sync().get("fwd:big")).isEqualTo(big);

            assertThat(server.get("fwd:small")).isEqualTo("v");
            assertThat(server.get("fwd:big")).isEqualTo(big);
            assertThat(proxy.connections()).isEqualTo(1);
        }
    }

    @Test
    void closeStopsEveryThreadAndReleasesThePort() throws Exception {
        TcpProxy proxy = TcpProxy.start(HOST, server.port());
        int port = proxy.port();
        String prefix = "tcp-proxy-" + port + "-";
        try (RawClient raw = RawClient.open(proxy)) {
            assertThat(raw.call("PING")).isEqualTo("+PONG");
            proxy.delay(DELAY.multipliedBy(10));
            raw.send("PING"); // in flight, held by the delay, when the proxy closes
            assertThat(proxyThreads(prefix)).hasSize(5); // the acceptor and four for the one connection

            proxy.close();

            await().atMost(PATIENCE).pollInterval(POLL).until(() -> proxyThreads(prefix).isEmpty());
            assertThat(proxy.connections()).isZero();
            proxy.close(); // idempotent
            raw.expectClosed();
        }
        assertThatThrownBy(() -> new Socket(HOST, port).close()).isInstanceOf(ConnectException.class);
        try (ServerSocket again = new ServerSocket()) {
            again.bind(new InetSocketAddress(HOST, port));
            assertThat(again.getLocalPort()).isEqualTo(port);
        }
    }

    @Test
    void closesTheClientWhenTheTargetRefuses() throws Exception {
        int deadPort;
        try (ServerSocket gone = new ServerSocket()) {
            gone.bind(new InetSocketAddress(HOST, 0));
            deadPort = gone.getLocalPort();
        }
        try (TcpProxy proxy = TcpProxy.start(HOST, deadPort); RawClient raw = RawClient.open(proxy)) {
            raw.expectClosed();
            assertThat(proxy.connections()).isZero();
            assertThat(proxyThreads("tcp-proxy-" + proxy.port() + "-")).hasSize(1);
        }
    }
}
