package io.redlock;

import static io.redlock.ItSupport.redlockOn;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.redlock.testkit.RedisNodes;
import io.redlock.testkit.RedisServer;
import io.redlock.testkit.junit.WithRedisNodes;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

@WithRedisNodes(value = 3, args = {"--requirepass", "right-secret-1"})
class AuthIT {

    private static String wrongPasswordUri(RedisServer server) {
        return "redis://:wrong-secret-9@" + server.address();
    }

    @Test
    void theRightPasswordWorks(RedisNodes nodes) {
        try (Redlock redlock = redlockOn(nodes).build()) {
            assertThat(redlock.tryAcquire("auth", Duration.ofSeconds(5))).isPresent();
        }
    }

    @Test
    void aWrongPasswordIsATypedErrorNamingEachNodeWithoutThePassword(RedisNodes nodes) {
        List<String> uris = nodes.servers().stream().map(AuthIT::wrongPasswordUri).toList();
        try (Redlock redlock = Redlock.builder().nodes(uris).nodeTimeout(ItSupport.NODE_TIMEOUT).build()) {
            // a connection attempt can also fail for want of CPU on a loaded machine (Lettuce then reports
            // "RedisHandshakeHandler not registered"): the next attempt reconnects and meets the wrong password
            await().atMost(ItSupport.units(100)).pollInterval(ItSupport.units(2)).untilAsserted(() ->
                    assertThatThrownBy(() -> redlock.tryAcquire("auth", Duration.ofSeconds(5)))
                    .isInstanceOf(QuorumUnreachableException.class)
                    .satisfies(e -> {
                        QuorumUnreachableException failure = (QuorumUnreachableException) e;
                        assertThat(failure.failures()).hasSize(3)
                                .allSatisfy(f -> assertThat(f.kind()).isEqualTo(NodeFailure.Kind.ERROR))
                                .allSatisfy(f -> assertThat(f.accessRefused()).as(f.toString()).isTrue());
                        for (RedisServer node : nodes) {
                            assertThat(failure.getMessage()).contains(node.address());
                        }
                        assertThat(failure.getMessage()).containsIgnoringCase("WRONGPASS");
                        StringWriter trace = new StringWriter();
                        failure.printStackTrace(new PrintWriter(trace));
                        assertThat(trace.toString()).doesNotContain("wrong-secret-9").doesNotContain("right-secret-1");
                    }));
        }
    }

    @Test
    void aWrongPasswordOnOneNodeOfThreeStillAcquiresWithTheOtherTwo(RedisNodes nodes) {
        try (Redlock redlock = Redlock.builder().nodes(nodes.node(0).uri(), nodes.node(1).uri(),
                wrongPasswordUri(nodes.node(2))).nodeTimeout(ItSupport.NODE_TIMEOUT).build()) {
            Lease lease = redlock.tryAcquire("auth-partial", Duration.ofSeconds(5)).orElseThrow();
            assertThat(ItSupport.holding(nodes, "auth-partial", lease.value())).isEqualTo(2);
        }
    }

    @Test
    void aPasswordGivenOnItsOwnServesEveryNodeWhoseUriGivesNone(RedisNodes nodes) {
        List<String> bare = nodes.servers().stream().map(server -> "redis://" + server.address()).toList();
        try (Redlock redlock = Redlock.builder().nodes(bare).password("right-secret-1")
                .nodeTimeout(EveryNodeAnswers.NODE_TIMEOUT).build()) {
            Lease lease = redlock.tryAcquire("auth-own", Duration.ofSeconds(10)).orElseThrow();
            ItSupport.awaitOnEveryNode(nodes, "auth-own");
            assertThat(nodes.servers()).allSatisfy(node -> assertThat(node.get("auth-own")).isEqualTo(lease.value()));
        }
    }

    @Test
    void aUrisOwnPasswordIsKeptOverOneGivenOnItsOwn(RedisNodes nodes) {
        try (Redlock redlock = Redlock.builder().nodes("redis://" + nodes.node(0).address(),
                "redis://" + nodes.node(1).address(), wrongPasswordUri(nodes.node(2))).password("right-secret-1")
                .nodeTimeout(EveryNodeAnswers.NODE_TIMEOUT).build()) {
            Lease lease = redlock.tryAcquire("auth-kept", Duration.ofSeconds(10)).orElseThrow();
            assertThat(ItSupport.holding(nodes, "auth-kept", lease.value())).isEqualTo(2);
        }
    }
}
