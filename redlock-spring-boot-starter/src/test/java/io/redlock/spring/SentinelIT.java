package io.redlock.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.lettuce.core.RedisURI;
import io.micrometer.core.instrument.MeterRegistry;
import io.redlock.LockNotAcquiredException;
import io.redlock.Redlock;
import io.redlock.spring.app.LockedTestApp;
import io.redlock.spring.app.Order;
import io.redlock.spring.app.Orders;
import io.redlock.spring.app.Sections;
import io.redlock.testkit.RedisSentinel;
import io.redlock.testkit.RedisServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Sentinel mode against a real master and a real sentinel, both started by the testkit on free loopback ports.
 */
@ExtendWith(OutputCaptureExtension.class)
class SentinelIT {

    private static final String PASSWORD = "sentinel-it-pw-never-shown";
    private static final String CAVEAT = "a failover to an asynchronously replicated replica can lose a lock: the"
            + " master may acknowledge and crash before replicating";

    @Test
    void locksOnTheMasterTheSentinelNamesTagsItByNameAndLogsTheFailoverCaveatOnce(CapturedOutput output) throws Exception {
        try (RedisServer master = RedisServer.builder().password(PASSWORD).start();
                RedisSentinel sentinel = RedisSentinel.monitor("mymaster", master);
                ConfigurableApplicationContext app = LockedTestApp.start("sentinel", new Sections(),
                        "redlock.sentinel.master-name=mymaster", "redlock.sentinel.addresses=" + sentinel.address(),
                        "redlock.sentinel.password=" + PASSWORD, "redlock.node-timeout=400ms")) {
            RedisURI node = app.getBean(Redlock.class).config().nodes().get(0);
            assertThat(node.getSentinelMasterId()).isEqualTo("mymaster"); // Lettuce follows the sentinels
            assertThat(node.getSentinels()).extracting(RedisURI::getPort).containsExactly(sentinel.port());
            long token = app.getBean(Orders.class).ship(new Order("s1"), "sentinel");
            assertThat(token).isPositive();
            assertThat(master.get("orders:s1:fence")).isEqualTo(Long.toString(token));
            // up once the master answers a PING within the node timeout (a loaded machine may miss one round)
            await().atMost(Duration.ofSeconds(30)).until(() -> BootLine.health(app).up());

            // with the master gone, its errors and its health entry are under the master name, not host:port lists
            master.kill();
            assertThatThrownBy(() -> app.getBean(Orders.class).reportOrFail("s1"))
                    .isInstanceOf(LockNotAcquiredException.class);
            MeterRegistry registry = app.getBean(MeterRegistry.class);
            assertThat(registry.get("redlock.node.errors").tag("node", "mymaster").counters())
                    .isNotEmpty().allSatisfy(counter -> assertThat(counter.count()).isPositive());
            assertThat(registry.find("redlock.node.errors").counters()).as("every node tag")
                    .allSatisfy(counter -> assertThat(counter.getId().getTag("node")).isEqualTo("mymaster"));
            BootLine.Checked down = BootLine.health(app);
            assertThat(down.status()).isEqualTo("DOWN");
            assertThat(new ArrayList<Object>(((Map<?, ?>) down.details().get("nodes")).keySet()))
                    .containsExactly("mymaster");
            assertThat(down.text()).doesNotContain(PASSWORD);
        }
        assertThat(output.getAll().split(Pattern.quote(CAVEAT), -1)).as("the caveat, logged once").hasSize(2);
        assertThat(output).contains("Redlock: 1 node(s)").doesNotContain(PASSWORD);
    }
}
