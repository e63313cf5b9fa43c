package io.redlock.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;
import static org.awaitility.Awaitility.await;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisCommandTimeoutException;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class TcpProxyIT {

    private static final String HOST = "127.0.0.1";
    /** The one base unit every timing margin is derived from. */
    private static final Duration UNIT = Duration.ofMillis(100);
    private static final Duration DELAY = UNIT;
    /** Generous: a cold first command under load took over 5 units; only the timeout cases wait it out. */
    private static final Duration CLIENT_TIMEOUT = UNIT.multipliedBy(20);
    private static final Duration SILENCE = UNIT.multipliedBy(5);
    private static final Duration PATIENCE = UNIT.multipliedBy(50);
    private static final Duration POLL = UNIT.dividedBy(5);

    private static RedisServer server;
    private static RedisClient lettuce;

    @BeforeAll
    static void startServer() {
        server = RedisServer.launch();
        lettuce = RedisClient.create();
    }

    @AfterAll
    static void stopServer() {
        if (lettuce != null) {
            lettuce.shutdown(Duration.ZERO, Duration.ofSeconds(2));
        }
        if (server != null) {
            server.close();
        }
    }

    @AfterEach
    void noProxyThreadOutlivesItsProxy() {
        await().atMost(PATIENCE).pollInterval(POLL).until(() -> proxyThreads("tcp-proxy-").isEmpty());
    }

    @Test
    void forwardsCommandsAndRepliesBothWays() {
        String big = "x".repeat(300_000) + "end"; // many chunks each way, which must stay in order
        try (TcpProxy proxy = TcpProxy.start(HOST, server.port());
                StatefulRedisConnection<String, String> connection = connect(proxy)) {
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
    void delayAddsLatencyEachWayAndKeepsTheOrderOfBytes() throws Exception {
        try (TcpProxy proxy = TcpProxy.start(HOST, server.port()); Raw raw = Raw.open(proxy)) {
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
                StatefulRedisConnection<String, String> connection = connect(proxy);
                Raw raw = Raw.open(proxy)) {
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
            try (StatefulRedisConnection<String, String> fresh = connect(proxy)) {
                assertThat(fresh.sync().set("drop:healed", "yes")).isEqualTo("OK");
                assertThat(fresh.sync().get("drop:healed")).isEqualTo("yes");
            }
        }
    }

    @Test
    void blackholeForwardsNothingUntilHealedThenDeliversWhatWasHeldInOrder() throws Exception {
        try (TcpProxy proxy = TcpProxy.start(HOST, server.port());
                StatefulRedisConnection<String, String> connection = connect(proxy);
                Raw raw = Raw.open(proxy)) {
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
            try (StatefulRedisConnection<String, String> fresh = connect(proxy)) {
                assertThat(fresh.sync().set("bh:healed", "yes")).isEqualTo("OK");
                assertThat(server.get("bh:healed")).isEqualTo("yes");
            }
        }
    }

    @Test
    void resetAbortsOpenConnectionsAndAcceptsNewOnes() throws Exception {
        try (TcpProxy proxy = TcpProxy.start(HOST, server.port());
                StatefulRedisConnection<String, String> connection = connect(proxy);
                Raw raw = Raw.open(proxy)) {
            assertThat(raw.call("PING")).isEqualTo("+PONG");
            assertThat(connection.sync().ping()).isEqualTo("PONG");
            assertThat(proxy.connections()).isEqualTo(2);

            proxy.reset();

            assertThatThrownBy(raw::line).isInstanceOf(SocketException.class).hasMessageContaining("reset");
            try (Raw again = Raw.open(proxy)) {
                assertThat(again.call("PING")).isEqualTo("+PONG");
            }
            // Lettuce reconnects on its own through the proxy
            await().atMost(PATIENCE).pollInterval(POLL).ignoreExceptions()
                    .until(() -> "PONG".equals(connection.sync().ping()));
        }
    }

    @Test
    void closeStopsEveryThreadAndReleasesThePort() throws Exception {
        TcpProxy proxy = TcpProxy.start(HOST, server.port());
        int port = proxy.port();
        String prefix = "tcp-proxy-" + port + "-";
        try (Raw raw = Raw.open(proxy)) {
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
        try (TcpProxy proxy = TcpProxy.start(HOST, deadPort); Raw raw = Raw.open(proxy)) {
            raw.expectClosed();
            assertThat(proxy.connections()).isZero();
            assertThat(proxyThreads("tcp-proxy-" + proxy.port() + "-")).hasSize(1);
        }
    }

    private static StatefulRedisConnection<String, String> connect(TcpProxy proxy) {
        RedisURI uri = RedisURI.create(proxy.uri());
        uri.setTimeout(CLIENT_TIMEOUT);
        return lettuce.connect(uri);
    }

    private static Duration roundTrip(Raw raw) throws IOException {
        long start = System.nanoTime();
        assertThat(raw.call("PING")).isEqualTo("+PONG");
        return Duration.ofNanos(System.nanoTime() - start);
    }

    private static List<String> proxyThreads(String prefix) {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(Thread::isAlive)
                .map(Thread::getName)
                .filter(name -> name.startsWith(prefix))
                .sorted()
                .collect(Collectors.toList());
    }

    /** A raw client connection through the proxy: inline commands out, reply lines in. */
    private static final class Raw implements AutoCloseable {
        private final Socket socket;
        private final InputStream in;

        private Raw(Socket socket) throws IOException {
            this.socket = socket;
            this.in = socket.getInputStream();
        }

        static Raw open(TcpProxy proxy) throws IOException {
            Socket socket = new Socket();
            try {
                socket.setTcpNoDelay(true);
                socket.connect(new InetSocketAddress(HOST, proxy.port()), (int) PATIENCE.toMillis());
                socket.setSoTimeout((int) PATIENCE.toMillis());
                return new Raw(socket);
            } catch (IOException e) {
                socket.close();
                throw e;
            }
        }

        void send(String inlineCommand) throws IOException {
            socket.getOutputStream().write((inlineCommand + "\r\n").getBytes(StandardCharsets.US_ASCII));
            socket.getOutputStream().flush();
        }

        String call(String inlineCommand) throws IOException {
            send(inlineCommand);
            return line();
        }

        /** The next reply line, without its CRLF. */
        String line() throws IOException {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            int previous = -1;
            while (true) {
                int b = in.read();
                if (b < 0) {
                    throw new IOException("closed after " + bytes.size() + " bytes of a line");
                }
                if (previous == '\r' && b == '\n') {
                    byte[] line = bytes.toByteArray();
                    return new String(line, 0, line.length - 1, StandardCharsets.US_ASCII);
                }
                bytes.write(b);
                previous = b;
            }
        }

        /** Nothing arrives for this long (and the connection stays open). */
        void expectSilence(Duration silence) throws IOException {
            socket.setSoTimeout((int) silence.toMillis());
            try {
                int b = in.read();
                fail("expected silence, but read " + (b < 0 ? "the end of the stream" : "byte " + b));
            } catch (SocketTimeoutException expected) {
                // silence
            } finally {
                socket.setSoTimeout((int) PATIENCE.toMillis());
            }
        }

        /** The proxy closed or aborted this connection: the end of the stream or a reset, not a timeout. */
        void expectClosed() throws IOException {
            try {
                while (in.read() >= 0) {
                    // a reply that was already on its way may come first
                }
            } catch (SocketTimeoutException e) {
                fail("the connection was not closed within " + PATIENCE);
            } catch (SocketException e) {
                assertThat(e).hasMessageContaining("reset");
            }
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }
}
