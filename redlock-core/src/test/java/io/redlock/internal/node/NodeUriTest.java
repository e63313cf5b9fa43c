package io.redlock.internal.node;

import static org.assertj.core.api.Assertions.assertThat;

import io.lettuce.core.RedisURI;
import io.redlock.internal.node.NodeClient;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The per-node copy of a URI keeps everything but the timeout. */
class NodeUriTest {

    @Test
    @SuppressWarnings("deprecation")
    void aPlainUriKeepsItsCredentialsAndDatabase() {
        RedisURI copy = NodeClient.withTimeout(RedisURI.create("redis://user:pw@h1:6380/3"), Duration.ofSeconds(2));
        assertThat(copy.getHost()).isEqualTo("h1");
        assertThat(copy.getPort()).isEqualTo(6380);
        assertThat(copy.getDatabase()).isEqualTo(3);
        assertThat(copy.getUsername()).isEqualTo("user");
        assertThat(new String(copy.getPassword())).isEqualTo("pw");
        assertThat(copy.getTimeout()).isEqualTo(Duration.ofSeconds(2));
    }

    @Test
    void aSentinelUriKeepsItsMasterAndSentinels() {
        RedisURI sentinel = RedisURI.create("redis-sentinel://:pw@s1:26379,s2:26380/2#mymaster");
        RedisURI copy = NodeClient.withTimeout(sentinel, Duration.ofSeconds(2));
        assertThat(copy.getSentinelMasterId()).isEqualTo("mymaster");
        assertThat(copy.getSentinels()).extracting(RedisURI::getHost).containsExactly("s1", "s2");
        assertThat(copy.getSentinels()).extracting(RedisURI::getPort).containsExactly(26379, 26380);
        assertThat(copy.getDatabase()).isEqualTo(2);
        assertThat(copy.getTimeout()).isEqualTo(Duration.ofSeconds(2));
    }
}
