package io.redlock.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lettuce.core.RedisURI;
import io.redlock.Redlock;
import io.redlock.spring.app.LockedTestApp;
import io.redlock.spring.app.Order;
import io.redlock.spring.app.Orders;
import io.redlock.spring.app.Sections;
import io.redlock.testkit.RedisBinary;
import io.redlock.testkit.RedisServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Sentinel mode against a real master (testkit) and a real sentinel. The testkit starts plain servers only, so the
 * sentinel — the same redis-server binary with {@code --sentinel} and a config file — is started here, on a free
 * loopback port, and killed in {@code finally} (and by a shutdown hook if the JVM exits first).
 */
@ExtendWith(OutputCaptureExtension.class)
class SentinelIT {

    private static final String PASSWORD = "sentinel-it-pw-never-shown";
    private static final String CAVEAT = "a failover to an asynchronously replicated replica can lose a lock: the"
            + " master may acknowledge and crash before replicating";

    @Test
    void locksOnTheMasterTheSentinelNamesAndLogsTheFailoverCaveatOnce(CapturedOutput output) throws Exception {
        try (RedisServer master = RedisServer.builder().password(PASSWORD).start()) {
            Path dir = Files.createTempDirectory("redlock-sentinel-it");
            int port = freePort();
            Path conf = dir.resolve("sentinel.conf");
            Files.writeString(conf, String.join("\n", "port " + port, "bind 127.0.0.1", "dir " + dir,
                    "sentinel monitor mymaster 127.0.0.1 " + master.port() + " 1",
                    "sentinel auth-pass mymaster " + PASSWORD, ""));
            Process sentinel = new ProcessBuilder(RedisBinary.get().path().toString(), conf.toString(), "--sentinel")
                    .redirectErrorStream(true).redirectOutput(dir.resolve("sentinel.log").toFile()).start();
            Thread killer = new Thread(sentinel::destroyForcibly, "kill-sentinel");
            Runtime.getRuntime().addShutdownHook(killer);
            try {
                await().atMost(Duration.ofSeconds(10)).until(() -> sentinel.isAlive() && answersPing(port));
                try (ConfigurableApplicationContext app = LockedTestApp.start("sentinel", new Sections(),
                        "redlock.sentinel.master-name=mymaster", "redlock.sentinel.addresses=127.0.0.1:" + port,
                        "redlock.sentinel.password=" + PASSWORD)) {
                    RedisURI node = app.getBean(Redlock.class).config().nodes().get(0);
                    assertThat(node.getSentinelMasterId()).isEqualTo("mymaster"); // Lettuce follows the sentinels
                    assertThat(node.getSentinels()).extracting(RedisURI::getPort).containsExactly(port);
                    long token = app.getBean(Orders.class).ship(new Order("s1"), "sentinel");
                    assertThat(token).isPositive();
                    assertThat(master.get("orders:s1:fence")).isEqualTo(Long.toString(token));
                }
            } finally {
                sentinel.destroyForcibly();
                sentinel.waitFor(10, TimeUnit.SECONDS);
                Runtime.getRuntime().removeShutdownHook(killer);
                try (Stream<Path> files = Files.walk(dir)) {
                    files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
                }
            }
        }
        assertThat(output.getAll().split(Pattern.quote(CAVEAT), -1)).as("the caveat, logged once").hasSize(2);
        assertThat(output).contains("Redlock: 1 node(s)").doesNotContain(PASSWORD);
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket()) {
            socket.bind(new InetSocketAddress("127.0.0.1", 0));
            return socket.getLocalPort();
        }
    }

    private static boolean answersPing(int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 200);
            socket.setSoTimeout(500);
            OutputStream out = socket.getOutputStream();
            out.write("PING\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = socket.getInputStream();
            byte[] reply = new byte[16];
            int n = in.read(reply);
            return n > 0 && new String(reply, 0, n, StandardCharsets.US_ASCII).startsWith("+PONG");
        } catch (IOException e) {
            return false;
        }
    }
}
