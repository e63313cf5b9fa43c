package io.redlock;

import static io.redlock.ItSupport.redlockOn;
import static org.assertj.core.api.Assertions.assertThat;

import io.redlock.testkit.RedisNodes;
import io.redlock.testkit.junit.WithRedisNodes;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * One try finds a free permit on an even number of nodes too: a refused round is decided once a majority is out of
 * reach, before every node's reply (naming its free slot) is in, so the sweep counts the nodes not heard yet as
 * possibly free. Four nodes: decided after 2 refusals, where 3 make a majority.
 */
@WithRedisNodes(4)
class SemaphoreSweepIT {

    private static final Duration TTL = Duration.ofSeconds(10);

    @Test
    void everyTryFindsTheFreePermitWhenTheFirstSlotAskedForIsTaken(RedisNodes nodes) {
        try (Redlock holder = redlockOn(nodes).build(); Redlock other = redlockOn(nodes).build()) {
            Lease held = holder.semaphore("sweep", 2).tryAcquire(TTL).orElseThrow();
            for (int i = 0; i < 12; i++) { // the first slot asked for is random: half the tries start on the taken one
                Optional<Lease> lease = other.semaphore("sweep", 2).tryAcquire(TTL);
                assertThat(lease).as("try %d", i).isPresent();
                lease.get().release();
            }
            held.release();
        }
    }
}
