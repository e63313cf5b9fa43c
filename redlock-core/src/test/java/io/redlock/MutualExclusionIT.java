package io.redlock;

import static io.redlock.ItSupport.redlockOn;
import static org.assertj.core.api.Assertions.assertThat;

import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.redlock.testkit.RedisNodes;
import io.redlock.testkit.RedisServer;
import io.redlock.testkit.junit.WithRedisNodes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

@WithRedisNodes(5)
class MutualExclusionIT {

    private static final Logger log = LoggerFactory.getLogger(MutualExclusionIT.class);
    private static final int THREADS = 16;
    private static final int INCREMENTS_PER_THREAD = 25;

    @Test
    void sharedCounterNeverLosesAnIncrementAcrossTwoClientsAndSixteenThreads(RedisNodes nodes) throws Exception {
        try (RedisServer storage = RedisServer.launch();
                Redlock first = redlockOn(nodes).build();
                Redlock second = redlockOn(nodes).build()) {
            RedisClient storageClient = RedisClient.create(storage.uri());
            ExecutorService pool = Executors.newFixedThreadPool(THREADS);
            AtomicInteger holders = new AtomicInteger();
            AtomicInteger mostHolders = new AtomicInteger();
            AtomicInteger rounds = new AtomicInteger();
            long start = System.nanoTime();
            try (StatefulRedisConnection<String, String> connection = storageClient.connect()) {
                RedisCommands<String, String> counter = connection.sync();
                List<Future<?>> workers = new ArrayList<>();
                for (int t = 0; t < THREADS; t++) {
                    Redlock redlock = t % 2 == 0 ? first : second;
                    workers.add(pool.submit(() -> {
                        for (int i = 0; i < INCREMENTS_PER_THREAD; i++) {
                            // a TTL no pause outlasts: every section ends inside its lease's validity (checked
                            // below), where the theory promises no other holder, so any overlap is a failure
                            try (Lease lease = redlock.acquire("counter", Duration.ofSeconds(30), Duration.ofSeconds(60))
                                    .orElseThrow()) {
                                rounds.incrementAndGet();
                                mostHolders.accumulateAndGet(holders.incrementAndGet(), Math::max);
                                // a read-modify-write that loses updates if two holders overlap
                                String read = counter.get("value");
                                int next = (read == null ? 0 : Integer.parseInt(read)) + 1;
                                counter.set("value", Integer.toString(next));
                                holders.decrementAndGet();
                                assertThat(lease.isValid()).isTrue();
                            }
                        }
                        return null;
                    }));
                }
                for (Future<?> worker : workers) {
                    worker.get(2, TimeUnit.MINUTES);
                }
                assertThat(counter.get("value")).isEqualTo(Integer.toString(THREADS * INCREMENTS_PER_THREAD));
            } finally {
                pool.shutdownNow();
                storageClient.shutdown();
            }
            assertThat(mostHolders).hasValue(1);
            assertThat(ItSupport.absentEverywhere(nodes, "counter")).isTrue();
            log.info("{} guarded increments by {} threads on 2 clients in {} ms", rounds.get(), THREADS,
                    ItSupport.elapsedMillis(start));
        }
    }
}
