package io.redlock;

import static org.assertj.core.api.Assertions.assertThat;

import io.redlock.testkit.RedisNodes;
import io.redlock.testkit.junit.WithRedisNodes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The README's example ({@code ShipOrder}), with the testkit's nodes instead of fixed addresses. */
@WithRedisNodes(5)
class ReadmeExampleIT {

    @Test
    void theReadmeExampleRuns(RedisNodes nodes) {
        List<String> done = new ArrayList<>();
        try (Redlock redlock = Redlock.builder().nodes(nodes.uriArray()).build()) {
            Optional<Lease> acquired = redlock.acquire("orders:42", Duration.ofSeconds(30), Duration.ofSeconds(5));
            if (acquired.isEmpty()) {
                throw new AssertionError("someone else is shipping order 42");
            }
            try (Lease lease = acquired.get()) {
                for (String step : new String[] {"pick", "pack", "label"}) {
                    if (!lease.isValid()) {
                        throw new IllegalStateException("lost the lock on " + lease.resource());
                    }
                    done.add(step);
                    if (lease.remainingValidity().compareTo(Duration.ofSeconds(10)) < 0
                            && !lease.extend(Duration.ofSeconds(30))) {
                        throw new IllegalStateException("could not extend the lock on " + lease.resource());
                    }
                }
            }
        }
        assertThat(done).containsExactly("pick", "pack", "label");
        assertThat(ItSupport.absentEverywhere(nodes, "orders:42")).isTrue();
    }
}
