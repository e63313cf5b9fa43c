package io.redlock.internal.node;

import io.lettuce.core.RedisURI;
import io.redlock.RedlockConfig;
import io.redlock.RedlockConfigException;
import io.redlock.Secrets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The node list of a configuration: each node string parsed (a Redis URI, or a Redis Cluster member's seeds), and the
 * list checked as a whole; every failure is a {@link RedlockConfigException} naming the node, credentials masked.
 */
public final class NodeUris {

    /** A node written {@code host:port}, without the scheme a URI needs. */
    private static final Pattern HOST_PORT = Pattern.compile("[^/:@\\s]+:\\d{1,5}");

    /** More independent masters than this make no sense for a lock (and release notifications count nodes in a long). */
    static final int MAX_NODES = 64;

    /** The setting a node URI or the node list belongs to. */
    private static final List<String> NODES = List.of("nodes");

    private NodeUris() {
    }

    /**
     * Parses node URI strings; a bad one fails with its text (credentials masked) and the parser's reason. A string
     * starting with {@link RedlockConfig#CLUSTER_PREFIX} is a Redis Cluster member: its seeds, each a plain
     * {@code redis://} or {@code rediss://} URI.
     */
    public static List<ParsedNode> parseNodes(List<String> uris) {
        List<ParsedNode> parsed = new ArrayList<>(uris.size());
        for (String uri : uris) {
            if (uri == null || uri.isBlank()) {
                throw new RedlockConfigException(NODES, "node URI must not be blank, was '" + uri + "'");
            }
            String trimmed = uri.trim();
            if (!trimmed.startsWith(RedlockConfig.CLUSTER_PREFIX)) {
                parsed.add(ParsedNode.server(parseUri(trimmed)));
                continue;
            }
            List<RedisURI> seeds = new ArrayList<>();
            String list = trimmed.substring(RedlockConfig.CLUSTER_PREFIX.length());
            for (String seed : list.split(Pattern.quote(RedlockConfig.CLUSTER_SEED_SEPARATOR), -1)) {
                seeds.add(clusterSeed(seed.trim()));
            }
            parsed.add(new ParsedNode(seeds.get(0), seeds));
        }
        return parsed;
    }

    private static RedisURI clusterSeed(String seed) {
        if (seed.isEmpty()) {
            throw new RedlockConfigException(NODES, "a cluster member needs seed URIs after '"
                    + RedlockConfig.CLUSTER_PREFIX + "', separated by '" + RedlockConfig.CLUSTER_SEED_SEPARATOR
                    + "'; one was empty");
        }
        RedisURI uri = parseUri(seed);
        if (uri.getSocket() != null || uri.getSentinelMasterId() != null) {
            throw new RedlockConfigException(NODES, "invalid cluster seed '" + Secrets.of(List.of(seed)).scrub(seed)
                    + "': a seed is redis://host:port or rediss://host:port");
        }
        return uri;
    }

    private static RedisURI parseUri(String uri) {
        Secrets secrets = Secrets.of(List.of(uri)); // Lettuce's messages may quote a piece of the password
        String shown = secrets.scrub(uri);
        RedisURI redisUri;
        try {
            redisUri = RedisURI.create(uri);
        } catch (RuntimeException e) {
            String hint = HOST_PORT.matcher(uri).matches() ? " (a node is a URI: redis://" + shown + ")" : "";
            throw new RedlockConfigException(NODES, "invalid node URI '" + shown + "': "
                    + secrets.scrub(String.valueOf(e.getMessage())) + hint);
        }
        if (redisUri.getSocket() == null && redisUri.getSentinelMasterId() == null
                && (redisUri.getHost() == null || redisUri.getHost().isBlank())) {
            throw new RedlockConfigException(NODES, "invalid node URI '" + shown + "': no host");
        }
        if (redisUri.getSocket() != null
                && !io.lettuce.core.resource.Transports.NativeTransports.isDomainSocketSupported()) {
            throw new RedlockConfigException(NODES, "invalid node URI '" + shown + "': a Unix socket"
                    + " needs Netty's native transport (epoll or kqueue), which is not on the class path; use"
                    + " redis://host:port");
        }
        int port = explicitPort(uri);
        if (port == 0) {
            // Lettuce takes port 0 for "no port" and would connect to 6379 instead
            throw new RedlockConfigException(NODES, "invalid node URI '" + shown + "': port "
                    + port + " is outside 1-65535");
        }
        String host = redisUri.getHost();
        if (host != null && host.indexOf(':') >= 0 && host.indexOf(':') == host.lastIndexOf(':')) {
            // Lettuce keeps "host:notaport" as the host name; an IPv6 literal has several colons
            throw new RedlockConfigException(NODES, "invalid node URI '" + shown + "': bad port in '"
                    + secrets.scrub(host) + "'");
        }
        return redisUri;
    }

    /** The port written in {@code uri}, -1 if none (or not readable; Lettuce's parse is the judge of that). */
    private static int explicitPort(String uri) {
        try {
            return java.net.URI.create(uri).getPort();
        } catch (IllegalArgumentException notForJava) {
            return -1;
        }
    }

    /**
     * At least one node and no server listed twice, as a node or as a cluster seed (Redlock needs independent
     * masters, SPEC R1). That two seeds name the same cluster shows only once connected: doctor reports it.
     */
    public static void nodes(List<ParsedNode> nodes) {
        if (nodes.isEmpty()) {
            throw new RedlockConfigException(NODES, "no nodes: give at least one Redis URI with nodes(...) or node(...)");
        }
        if (nodes.size() > MAX_NODES) {
            throw new RedlockConfigException(NODES, "at most " + MAX_NODES + " nodes, was " + nodes.size());
        }
        Set<String> seen = new HashSet<>();
        for (ParsedNode node : nodes) {
            for (RedisURI uri : node.uris()) {
                String name = Redaction.nodeName(uri);
                if (!seen.add(name)) {
                    throw new RedlockConfigException(NODES, "node " + name + " is listed twice; Redlock needs"
                            + " independent nodes");
                }
            }
        }
    }
}
