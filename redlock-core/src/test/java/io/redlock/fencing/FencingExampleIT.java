package io.redlock.fencing;

import static org.assertj.core.api.Assertions.assertThat;

import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.redlock.Lease;
import io.redlock.Redlock;
import io.redlock.testkit.RedisNodes;
import io.redlock.testkit.RedisServer;
import io.redlock.testkit.junit.WithRedisNodes;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The fenced read-modify-write of docs/FENCING.md, "Using the tokens", with the testkit's nodes. */
@WithRedisNodes(5)
class FencingExampleIT {

    @Test
    void theDocumentedFencingExampleRuns(RedisNodes nodes) {
        String[] lockNodes = nodes.uriArray();
        try (RedisServer storageServer = RedisServer.launch()) {
            storageServer.redis(r -> r.set("counter", "41"));
            RedisClient client = RedisClient.create(storageServer.uri());
            try (Redlock redlock = Redlock.builder().nodes(lockNodes).build();
                    StatefulRedisConnection<String, String> storage = client.connect()) {
                FencedRedis fenced = FencedRedis.on(storage);
                try (Lease lease = redlock.acquire("counter", Duration.ofSeconds(10), Duration.ofSeconds(5))
                        .orElseThrow()) {
                    Fence fence = Fence.of(lease);
                    long count = Long.parseLong(fenced.get("counter", fence).orElseThrow());
                    FencedResult<Void> write = fenced.set("counter", Long.toString(count + 1), fence);
                    assertThat(write.accepted()).isTrue();
                }
            } finally {
                client.shutdown();
            }
            assertThat(storageServer.get("counter")).isEqualTo("42");
        }
    }
}
