package io.redlock.cli;

import io.redlock.Redlock;
import io.redlock.testkit.RedisNodes;
import java.time.Duration;
import java.util.Map;

/** How the tests reach their nodes: redlock's environment, and a library client of their own. */
final class TestNodes {

    private TestNodes() {
    }

    /** The environment that names {@code nodes} to redlock ({@code $REDLOCK_NODES}). */
    static Map<String, String> env(RedisNodes nodes) {
        return Map.of(NodeOptions.ENV_NODES, String.join(",", nodes.uris()));
    }

    /**
     * A library client for setting up and checking what the command did, with the node timeout the commands get
     * ({@link Cli#NODE_TIMEOUT}): at the 50 ms default a slow reply on a loaded machine would pass for a silent node.
     */
    static Redlock client(RedisNodes nodes) {
        return Redlock.builder().nodes(nodes.uriArray()).nodeTimeout(Durations.parse(Cli.NODE_TIMEOUT)).build();
    }
}
