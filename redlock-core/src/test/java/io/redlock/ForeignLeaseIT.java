package io.redlock;

import static io.redlock.ItSupport.redlockOn;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.redlock.testkit.RedisNodes;
import io.redlock.testkit.RedisServer;
import io.redlock.testkit.junit.WithRedisNodes;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Extending and releasing a lease taken by another process, known only by its value. */
@WithRedisNodes(5)
class ForeignLeaseIT {

    @Test
    void anotherProcessCanExtendAndReleaseALeaseByItsValue(RedisNodes nodes) {
        // every node's answer is counted (released on all 5): a timeout they answer within
        try (Redlock taker = redlockOn(nodes).build();
                Redlock other = EveryNodeAnswers.redlockOn(nodes).build()) {
            Duration ttl = Duration.ofSeconds(10);
            Duration longer = Duration.ofSeconds(30);
            Lease lease = taker.tryAcquire("by-value", ttl).orElseThrow();
            ItSupport.awaitOnEveryNode(nodes, "by-value"); // else another connection's PEXPIRE can overtake a SET
            Optional<Lease> extended = other.extend("by-value", lease.value(), longer);
            assertThat(extended).isPresent();
            // more than the first TTL could give, at most the new TTL less the drift
            assertThat(extended.get().remainingValidity()).isGreaterThan(ttl)
                    .isLessThanOrEqualTo(longer.minus(longer.dividedBy(100)));
            // counted at the majority; the other nodes' PEXPIREs land a moment later
            org.awaitility.Awaitility.await().atMost(ItSupport.units(50)).untilAsserted(() -> {
                for (RedisServer node : nodes) {
                    assertThat(node.pttl("by-value")).as("extended beyond the first TTL").isGreaterThan(ttl.toMillis());
                }
            });
            assertThat(other.release("by-value", lease.value()).released()).isEqualTo(5);
            assertThat(ItSupport.absentEverywhere(nodes, "by-value")).isTrue();
            assertThat(other.release("by-value", lease.value()).released()).isZero();
        }
    }

    @Test
    void aWrongValueNeitherExtendsNorReleases(RedisNodes nodes) {
        try (Redlock redlock = redlockOn(nodes).build()) {
            Lease lease = redlock.tryAcquire("not-yours", Duration.ofSeconds(10)).orElseThrow();
            ItSupport.awaitOnEveryNode(nodes, "not-yours");
            assertThat(redlock.extend("not-yours", "someone-else", Duration.ofSeconds(30))).isEmpty();
            assertThat(redlock.release("not-yours", "someone-else").released()).isZero();
            assertThat(ItSupport.holding(nodes, "not-yours", lease.value())).isEqualTo(5);
            assertThatThrownBy(() -> redlock.release("not-yours", " ")).isInstanceOf(RedlockConfigException.class);
        }
    }

    /**
     * Once the key is gone from every node (expiry, simulated by deleting it, so that the TTL need not outlive the
     * wait for the nodes' writes), an extension by value finds nothing to extend and recreates nothing.
     */
    @Test
    void anExpiredLeaseCannotBeExtendedByValue(RedisNodes nodes) {
        try (Redlock redlock = redlockOn(nodes).build()) {
            Lease lease = redlock.tryAcquire("gone", Duration.ofSeconds(30)).orElseThrow();
            ItSupport.awaitOnEveryNode(nodes, "gone"); // else a slower node's SET could land after the DEL
            for (RedisServer node : nodes) {
                node.redis(r -> r.del("gone"));
            }
            assertThat(redlock.extend("gone", lease.value(), Duration.ofSeconds(30))).isEmpty();
            assertThat(ItSupport.absentEverywhere(nodes, "gone")).isTrue();
        }
    }

    @Test
    void aReleaseThatAMajorityDidNotAnswerIsNotConfirmedAndNamesTheSilentNodes(RedisNodes nodes) {
        // the running nodes must be counted: a timeout they answer within; the stalled ones cost it once
        try (Redlock redlock = EveryNodeAnswers.redlockOn(nodes).build()) {
            Lease lease = redlock.tryAcquire("half-released", Duration.ofSeconds(30)).orElseThrow();
            ItSupport.awaitOnEveryNode(nodes, "half-released");
            nodes.node(0).pause();
            nodes.node(1).pause();
            nodes.node(2).kill();
            try {
                ReleaseResult result = redlock.release("half-released", lease.value());
                assertThat(result.released()).isEqualTo(2);
                assertThat(result.answered()).isEqualTo(2);
                assertThat(result.confirmed()).isFalse();
                assertThat(result.failures()).extracting(NodeFailure::node).containsExactly(nodes.node(0).address(),
                        nodes.node(1).address(), nodes.node(2).address());
            } finally {
                nodes.node(0).resume();
                nodes.node(1).resume();
            }
            ReleaseResult again = redlock.release("half-released", lease.value());
            assertThat(again.confirmed()).isTrue();
            assertThat(again.answered()).isEqualTo(4);
        }
    }

    @Test
    void releaseByValueWithNoNodeReachableIsATypedError(RedisNodes nodes) {
        try (Redlock redlock = redlockOn(nodes).build()) {
            nodes.servers().forEach(RedisServer::kill);
            assertThatThrownBy(() -> redlock.release("x", "v")).isInstanceOf(QuorumUnreachableException.class);
        }
    }
}
