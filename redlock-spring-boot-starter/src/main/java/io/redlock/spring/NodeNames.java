package io.redlock.spring;

/**
 * Names a node for the {@code node} tag of {@code redlock.node.errors} and the keys of the health details:
 * {@code host:port}, never with credentials; a sentinel-managed master by its master name (e.g. {@code mymaster}),
 * which stays the same across failovers while the master's address changes.
 */
final class NodeNames {

    private static final String SENTINEL = "sentinel:";

    private NodeNames() {
    }

    /**
     * The name for {@code node}, as redlock-core names it in {@link io.redlock.NodeFailure#node()} and
     * {@link io.redlock.PingResult#node()}: {@code host:port} stays as it is; {@code sentinel:<master>@<sentinels>}
     * becomes {@code <master>}.
     */
    static String of(String node) {
        if (node != null && node.startsWith(SENTINEL)) {
            int at = node.lastIndexOf('@');
            if (at > SENTINEL.length()) {
                return node.substring(SENTINEL.length(), at);
            }
        }
        return node;
    }
}
