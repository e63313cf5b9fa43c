package io.redlock;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * No piece of a password, however short, reaches a message, whatever the shape of the node string it was written in:
 * well-formed or not, with or without a scheme, percent-encoded, IPv6, TLS, sentinel or cluster members. Property:
 * the configuration's error for a node string (its message and every cause's), and a message quoting the node
 * string scrubbed as the command and the starter scrub their output, hold none of the password's pieces of two
 * characters or more.
 */
class NodeStringSecretsTest {

    /** Node strings and the pieces of their passwords; every piece is one no host, port or message contains. */
    static Stream<Arguments> shapes() {
        return Stream.of(
                shape("admin:SuperSecret99@127.0.0.1:7805", "SuperSecret99"),
                shape("redis:/:SuperSecret99@127.0.0.1:7805", "SuperSecret99"),
                shape("redis//:SuperSecret99@127.0.0.1:7805", "SuperSecret99"),
                shape("redis:SuperSecret99@127.0.0.1:7805", "SuperSecret99"),
                shape("redis:SuperSecret99@", "SuperSecret99"),
                shape(":s3cr%2Ft@127.0.0.1:7805", "s3cr", "2Ft"),
                shape(":Zq@127.0.0.1:7805", "Zq"),
                shape("redis://:Sup3r/x9@127.0.0.1:7805", "Sup3r", "x9"),
                shape("redis://:Q7@127.0.0.1:notaport", "Q7"),
                shape("redis://u:Q7@127.0.0.1:0", "Q7"),
                shape("redis://:Sup3r/x9@127.0.0.1:99999", "Sup3r", "x9"),
                shape("redis://:Sup3r/x9@127.0.0.1:bad", "Sup3r", "x9"),
                shape("redis://:Sup3r%2Fx9@127.0.0.1:bad", "Sup3r", "x9", "2Fx9"),
                shape("redis://%3ASup3r%2Fx9@127.0.0.1:bad", "Sup3r", "x9", "3ASup3r"),
                shape("redis://:Sup3r x9@127.0.0.1:bad", "Sup3r", "x9"),
                shape("redis://:Sup3r\"x9@127.0.0.1:bad", "Sup3r", "x9"),
                shape("redis://:Sup3r,x9@127.0.0.1:bad", "Sup3r", "x9"),
                shape("redis://:Sup3r@x9@127.0.0.1:bad", "Sup3r", "x9"),
                shape("redis://Sup3r/x9@127.0.0.1:bad", "Sup3r", "x9"),
                shape("redis://:Sup3r/x9@", "Sup3r", "x9"),
                shape("redis:///:Sup3r/x9@127.0.0.1", "Sup3r", "x9"),
                shape("REDIS://:Sup3r/x9@127.0.0.1:bad", "Sup3r", "x9"),
                shape("redis://:Sup3r/x9@127.0.0.1:6379/notadb", "Sup3r", "x9"),
                shape("redis://:Sup3r/x9@127.0.0.1:6379?timeout=bogus", "Sup3r", "x9"),
                shape("http://:Sup3r/x9@127.0.0.1:6379", "Sup3r", "x9"),
                shape("rediss://:Sup3r/x9@[::1]:notaport", "Sup3r", "x9"),
                shape("rediss://admin:Sup3r/x9@[::1", "Sup3r", "x9"),
                shape("redis://:Sup3r/x9@[fe80::1%25eth0]:bad", "Sup3r", "x9"),
                shape("redis-socket://:Sup3r/x9@", "Sup3r", "x9"),
                shape("redis-sentinel://:Sup3r/x9@127.0.0.1:26379", "Sup3r", "x9"),
                shape("redis-sentinel://:Sup3r/x9@127.0.0.1:26379,127.0.0.1:bad#mymaster", "Sup3r", "x9"),
                shape("cluster:redis://:Sup3r/x9@127.0.0.1:7000|redis://:Sup3r/x9@127.0.0.1:bad", "Sup3r", "x9"),
                shape("cluster:redis-socket://:Sup3r/x9@/tmp/redis.sock", "Sup3r", "x9"),
                shape("cluster:admin:Sup3r/x9@127.0.0.1:7000", "Sup3r", "x9"),
                shape("redis://:Sup3r/x9@127.0.0.1:7805", "Sup3r", "x9"));
    }

    private static Arguments shape(String node, String... pieces) {
        return Arguments.of(node, List.of(pieces));
    }

    @ParameterizedTest
    @MethodSource("shapes")
    void theErrorForANodeStringHoldsNoPieceOfItsPassword(String node, List<String> pieces) {
        List<String> messages = new ArrayList<>();
        try {
            Redlock.builder().nodes(node, "redis://127.0.0.1:1", "redis://127.0.0.1:2").config();
        } catch (RuntimeException e) {
            for (Throwable t = e; t != null; t = t.getCause()) {
                messages.add(t.toString());
            }
        }
        messages.add(Secrets.of(List.of(node)).scrub("node " + node + " failed"));
        for (String message : messages) {
            for (String piece : pieces) {
                assertThat(message).as("a piece of the password of " + node).doesNotContain(piece);
            }
        }
    }
}
