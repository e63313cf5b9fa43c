package io.redlock.internal.node;

import static org.assertj.core.api.Assertions.assertThat;

import io.redlock.NodeFailure;
import org.junit.jupiter.api.Test;

/** One WARN per node per state, one INFO when it passes; other failures are not states. */
class NodeStatesTest {

    private static NodeFailure failure(String node, String reason) {
        return new NodeFailure(node, NodeFailure.Kind.UNAVAILABLE, reason);
    }

    @Test
    void aNodeInAStateIsLoggedOnceUntilItAnswersAgain() {
        NodeStates states = new NodeStates();
        assertThat(states.failed(failure("h:1", "OOM command not allowed"))).isTrue();
        assertThat(states.failed(failure("h:1", "OOM command not allowed"))).isFalse();
        assertThat(states.failed(failure("h:2", "OOM command not allowed"))).as("another node").isTrue();
        assertThat(states.failed(failure("h:1", "READONLY You can't write"))).as("another state").isTrue();
        assertThat(states.answered("h:1")).isTrue();
        assertThat(states.answered("h:1")).isFalse();
        assertThat(states.failed(failure("h:1", "READONLY You can't write"))).as("entered again").isTrue();
    }

    @Test
    void timeoutsAndErrorsAreNotStates() {
        NodeStates states = new NodeStates();
        assertThat(states.failed(new NodeFailure("h:1", NodeFailure.Kind.TIMEOUT, "no reply within 50 ms"))).isFalse();
        assertThat(states.failed(new NodeFailure("h:1", NodeFailure.Kind.ERROR, "NOPERM no permissions"))).isFalse();
        assertThat(states.failed(failure("h:1", "Connection refused"))).isFalse();
        assertThat(states.answered("h:1")).isFalse();
    }
}
