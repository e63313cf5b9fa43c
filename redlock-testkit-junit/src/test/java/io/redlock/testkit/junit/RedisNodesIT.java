package io.redlock.testkit.junit;

import io.redlock.testkit.RedisNodes;
import io.redlock.testkit.RedisServer;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

@WithRedisNodes(3)
class RedisNodesIT {

    private static final List<RedisServer> SEEN = new java.util.concurrent.CopyOnWriteArrayList<>();
    private RedisNodes fromBeforeEach;

    @BeforeEach
    void setUp(RedisNodes nodes) {
        fromBeforeEach = nodes;
    }

    @Test
    void injectsIndependentServersOnDistinctPorts(RedisNodes nodes) {
        assertThat(nodes).isSameAs(fromBeforeEach);
        assertThat(nodes.size()).isEqualTo(3);
        Set<Integer> ports = new HashSet<>();
        Set<String> runIds = new HashSet<>();
        for (RedisServer server : nodes) {
            ports.add(server.port());
            runIds.add(server.redis(r -> r.info("server")).lines().filter(l -> l.startsWith("run_id:"))
                    .findFirst().orElseThrow());
            SEEN.add(server);
        }
        assertThat(ports).hasSize(3);
        assertThat(runIds).hasSize(3);
        assertThat(nodes.uris()).containsExactlyElementsOf(nodes.servers().stream().map(RedisServer::uri).toList());
    }

    @Test
    @WithRedisNodes(value = 1, args = {"--maxmemory-policy", "allkeys-lru"})
    void methodAnnotationOverridesTheClassOne(RedisNodes nodes) {
        assertThat(nodes.size()).isEqualTo(1);
        assertThat(nodes.node(0).redis(r -> r.configGet("maxmemory-policy")).get("maxmemory-policy"))
                .isEqualTo("allkeys-lru");
        SEEN.add(nodes.node(0));
    }

    @AfterAll
    static void everyServerWasStoppedAfterItsTest() {
        assertThat(SEEN).isNotEmpty().noneMatch(RedisServer::isRunning);
    }
}
