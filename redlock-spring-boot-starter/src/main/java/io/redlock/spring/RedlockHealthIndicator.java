package io.redlock.spring;

import io.redlock.PingResult;
import io.redlock.Redlock;
import io.redlock.Secrets;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.boot.actuate.health.AbstractHealthIndicator;
import org.springframework.boot.actuate.health.Health;

/**
 * UP when a majority of the nodes ({@code quorum}) answers {@code PING} within the node timeout
 * ({@code redlock.node-timeout}), DOWN otherwise. Uses {@link Redlock#ping()}: all nodes at once, so a check takes at
 * most one node timeout however many nodes are stalled. Details: {@code quorum}, {@code answered}, {@code nodeTimeout}
 * and per node ({@code host:port}, a sentinel-managed master by its master name, never with credentials) whether it
 * {@code answered}, its {@code latencyMs}, or the {@code error}.
 */
public class RedlockHealthIndicator extends AbstractHealthIndicator {

    private final Redlock redlock;

    public RedlockHealthIndicator(Redlock redlock) {
        super("Redlock health check failed");
        this.redlock = redlock;
    }

    @Override
    protected void doHealthCheck(Health.Builder builder) {
        List<PingResult> pings = redlock.ping();
        int quorum = redlock.config().quorum();
        int answered = 0;
        Map<String, Object> nodes = new LinkedHashMap<>();
        for (PingResult ping : pings) {
            Map<String, Object> node = new LinkedHashMap<>();
            node.put("answered", ping.answered());
            if (ping.answered()) {
                answered++;
                node.put("latencyMs", millis(ping.latency().orElseThrow()));
            } else {
                node.put("error", Secrets.mask(ping.problem().orElse("")));
            }
            nodes.put(Secrets.mask(NodeNames.of(ping.node())), node);
        }
        (answered >= quorum ? builder.up() : builder.down())
                .withDetail("quorum", quorum)
                .withDetail("answered", answered)
                .withDetail("nodeTimeout", RedlockAutoConfiguration.print(redlock.config().nodeTimeout()))
                .withDetail("nodes", nodes);
    }

    /** Milliseconds with three decimals, e.g. 0.412. */
    private static BigDecimal millis(Duration latency) {
        return BigDecimal.valueOf(latency.toNanos()).movePointLeft(6).setScale(3, RoundingMode.HALF_UP);
    }
}
