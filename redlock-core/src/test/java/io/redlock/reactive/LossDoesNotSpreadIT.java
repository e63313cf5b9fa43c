package io.redlock.reactive;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.redlock.Lease;
import io.redlock.LeaseLostException;
import io.redlock.LockOptions;
import io.redlock.Redlock;
import io.redlock.testkit.RedisNodes;
import io.redlock.testkit.RedisServer;
import io.redlock.testkit.junit.WithRedisNodes;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * The loss of one lease does not cost the client its other leases: the asynchronous and reactive {@code withLock}
 * end their work without blocking the thread that reports the loss. That thread is a connection's event loop when the
 * nodes refused an extension; blocked, it held back the extensions of every other lease on those connections (found
 * by the generated histories, io.redlock.histories.WithLockHistoriesIT).
 */
@WithRedisNodes(5)
class LossDoesNotSpreadIT {

    /** Kept alive: extended when 1 s is left, so a stall of the event loop of 1.5 s or more loses it. */
    private static final LockOptions KEPT = LockOptions.builder().ttl(Duration.ofMillis(2500))
            .extendWhenRemaining(Duration.ofSeconds(1)).maxWait(Duration.ofSeconds(5)).build();

    @Test
    void aReactiveWithLockLosingItsLeaseLeavesTheClientsOtherLeasesAlive(RedisNodes nodes) throws Exception {
        try (Redlock redlock = Redlock.builder().nodes(nodes.uris()).nodeTimeout(Duration.ofMillis(200)).build()) {
            AtomicReference<Lease> other = new AtomicReference<>();
            Thread keeper = new Thread(() -> redlock.withLock("other", KEPT, lease -> {
                other.set(lease);
                Thread.sleep(Duration.ofSeconds(8).toMillis()); // several extension rounds, all must pass
                return null;
            }), "keeper");
            keeper.start();
            AtomicReference<Lease> doomed = new AtomicReference<>();
            assertThatThrownBy(() -> ReactiveRedlock.of(redlock).withLock("doomed", KEPT, lease -> Mono.fromCallable(
                    () -> {
                        doomed.set(lease);
                        for (RedisServer node : nodes) {
                            node.redis(commands -> commands.del("doomed")); // its next extension is refused
                        }
                        Thread.sleep(Duration.ofSeconds(6).toMillis());
                        return "done";
                    }).subscribeOn(Schedulers.boundedElastic())).blockLast(Duration.ofSeconds(30)))
                    .isInstanceOf(LeaseLostException.class);
            assertThat(doomed.get().lossReason()).isPresent();
            keeper.join(Duration.ofSeconds(30).toMillis());
            assertThat(other.get().lossReason()).as("the other lease, kept alive meanwhile").isEmpty();
        }
    }
}
