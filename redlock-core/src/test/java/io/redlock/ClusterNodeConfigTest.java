package io.redlock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lettuce.core.RedisURI;
import org.junit.jupiter.api.Test;

/** A quorum member that is a Redis Cluster: how it is written, what it means for the keys, and what is refused. */
class ClusterNodeConfigTest {

    @Test
    void aClusterMemberIsOneVoteKnownByItsSeedsAndSwitchesToHashTaggedKeys() {
        RedlockConfig config = Redlock.builder().nodes("redis://a:1")
                .clusterNode("redis://b:7000", "redis://c:7000")
                .nodes("cluster:redis://d:7000").config();
        assertThat(config.nodes()).extracting(RedisURI::getHost).containsExactly("a", "b", "d");
        assertThat(config.quorum()).isEqualTo(2);
        assertThat(config.clusterSeeds(0)).isEmpty();
        assertThat(config.clusterSeeds(1)).extracting(RedisURI::getHost).containsExactly("b", "c");
        assertThat(config.clusterSeeds(2)).extracting(RedisURI::getHost).containsExactly("d");
        assertThat(config.hashTaggedKeys()).isTrue();
        assertThat(Redlock.builder().nodes("redis://a:1").config().hashTaggedKeys()).isFalse();
    }

    @Test
    void aClusterWithoutSeedsOrWithAnEmptySeedIsRefused() {
        assertThatThrownBy(() -> Redlock.builder().clusterNode().config())
                .isInstanceOf(RedlockConfigException.class).hasMessageContaining("seed URIs after 'cluster:'");
        assertThatThrownBy(() -> Redlock.builder().nodes("cluster:redis://a:1||redis://b:1").config())
                .isInstanceOf(RedlockConfigException.class).hasMessageContaining("one was empty");
    }

    @Test
    void aSentinelOrASocketIsNotAClusterSeed() {
        assertThatThrownBy(() -> Redlock.builder().clusterNode("redis-sentinel://:hunter2@s:26379?sentinelMasterId=m")
                .config())
                .isInstanceOf(RedlockConfigException.class).hasMessageContaining("a seed is redis://host:port")
                .hasMessageNotContaining("hunter2");
    }

    @Test
    void aServerThatIsBothANodeAndASeedOrTheSeedOfTwoMembersIsListedTwice() {
        assertThatThrownBy(() -> Redlock.builder().nodes("redis://a:7000").clusterNode("redis://a:7000").config())
                .isInstanceOf(RedlockConfigException.class).hasMessageContaining("a:7000 is listed twice");
        assertThatThrownBy(() -> Redlock.builder().clusterNode("redis://a:7000", "redis://b:7000")
                .clusterNode("redis://c:7000", "redis://b:7000").config())
                .isInstanceOf(RedlockConfigException.class).hasMessageContaining("b:7000 is listed twice");
    }

    @Test
    void aSeedPasswordNeverShowsInTheError() {
        assertThatThrownBy(() -> Redlock.builder().clusterNode("redis://:hunter2@a:notaport").config())
                .isInstanceOf(RedlockConfigException.class).hasMessageNotContaining("hunter2");
    }
}
