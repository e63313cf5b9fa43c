package io.redlock.spring;

import io.redlock.Inspection;
import io.redlock.NodeReport;
import io.redlock.Redlock;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.boot.actuate.health.AbstractHealthIndicator;
import org.springframework.boot.actuate.health.Health;

/**
 * UP when a majority of the nodes ({@code quorum}) answers, DOWN otherwise; per node whether it is reachable, its
 * Redis version and role, or why it could not be reached. Nodes are named {@code host:port}, never with credentials.
 * Uses {@link Redlock#inspect()}, which waits up to max(1 s, node timeout) for each node (all at once).
 */
public class RedlockHealthIndicator extends AbstractHealthIndicator {

    private final Redlock redlock;

    public RedlockHealthIndicator(Redlock redlock) {
        super("Redlock health check failed");
        this.redlock = redlock;
    }

    @Override
    protected void doHealthCheck(Health.Builder builder) {
        Inspection inspection = redlock.inspect();
        int quorum = redlock.config().quorum();
        int reachable = 0;
        Map<String, Object> nodes = new LinkedHashMap<>();
        for (NodeReport report : inspection.nodes()) {
            Map<String, Object> node = new LinkedHashMap<>();
            node.put("reachable", report.reachable());
            if (report.reachable()) {
                reachable++;
                report.version().ifPresent(v -> node.put("version", v));
                report.role().ifPresent(r -> node.put("role", r));
            } else {
                report.problem().ifPresent(p -> node.put("error", Masking.maskUri(p)));
            }
            nodes.put(Masking.maskUri(report.node()), node);
        }
        (reachable >= quorum ? builder.up() : builder.down())
                .withDetail("quorum", quorum)
                .withDetail("reachable", reachable)
                .withDetail("nodes", nodes);
    }
}
