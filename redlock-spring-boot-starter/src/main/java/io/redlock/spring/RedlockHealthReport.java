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

/**
 * What the health indicator of either Spring Boot line reports: UP when a majority of the nodes ({@code quorum})
 * answers {@code PING} within the node timeout, DOWN otherwise, with the details {@code quorum}, {@code answered},
 * {@code nodeTimeout} and per node ({@code host:port}, a sentinel-managed master by its master name, never with
 * credentials) whether it {@code answered}, its {@code latencyMs}, or the {@code error}. One {@link Redlock#ping()}:
 * all nodes at once, so a check takes at most one node timeout however many nodes are stalled.
 */
record RedlockHealthReport(boolean up, Map<String, Object> details) {

    static RedlockHealthReport of(Redlock redlock) {
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
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("quorum", quorum);
        details.put("answered", answered);
        details.put("nodeTimeout", RedlockAutoConfiguration.print(redlock.config().nodeTimeout()));
        details.put("nodes", nodes);
        return new RedlockHealthReport(answered >= quorum, details);
    }

    /** Milliseconds with three decimals, e.g. 0.412. */
    private static BigDecimal millis(Duration latency) {
        return BigDecimal.valueOf(latency.toNanos()).movePointLeft(6).setScale(3, RoundingMode.HALF_UP);
    }
}
