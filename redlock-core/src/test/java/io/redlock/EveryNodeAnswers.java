package io.redlock;

import io.redlock.testkit.RedisNodes;
import java.time.Duration;

/**
 * For checks that need every live node to answer within the node timeout: a quorum with no slack (three of three live
 * nodes, one of one), or a report of each node. {@link ItSupport#NODE_TIMEOUT} leaves slack nowhere for a node that a
 * loaded machine schedules late; here the node timeout is not what the test is about, so it is long.
 */
final class EveryNodeAnswers {

    /** Far above any scheduling delay of a loaded 2-core machine, still well below the TTLs (10 s and more) in use. */
    static final Duration NODE_TIMEOUT = Duration.ofSeconds(2);

    private EveryNodeAnswers() {
    }

    /** {@link ItSupport#redlockOn} with {@link #NODE_TIMEOUT}. */
    static RedlockBuilder redlockOn(RedisNodes nodes) {
        return ItSupport.redlockOn(nodes).nodeTimeout(NODE_TIMEOUT);
    }
}
