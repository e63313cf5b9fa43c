package io.redlock.internal.node;

import io.lettuce.core.RedisURI;
import io.redlock.RedlockConfig;
import io.redlock.Secrets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * Keeps credentials out of messages: names nodes as {@code host:port}, masks the user-info part of URI strings and
 * scrubs any known password that a lower layer might have put into an error message. How secrets are found and
 * hidden is {@link Secrets}'s rule, the one every module uses.
 */
public final class Redaction {

    private final Secrets secrets;

    private Redaction(Secrets secrets) {
        this.secrets = secrets;
    }

    public static Redaction of(Collection<RedisURI> nodes) {
        List<String> secrets = new ArrayList<>();
        for (RedisURI uri : nodes) {
            addSecret(secrets, uri);
            for (RedisURI sentinel : uri.getSentinels()) {
                addSecret(secrets, sentinel);
            }
        }
        return new Redaction(Secrets.of(List.of()).withPasswords(secrets));
    }

    @SuppressWarnings("deprecation")
    private static void addSecret(List<String> secrets, RedisURI uri) {
        char[] password = uri.getPassword();
        if (password != null && password.length > 0) {
            secrets.add(new String(password));
        }
    }

    /** The node's name for messages and logs: {@code host:port}, never with credentials. */
    public static String nodeName(RedisURI uri) {
        if (uri.getSocket() != null) {
            return "unix:" + uri.getSocket();
        }
        if (uri.getSentinelMasterId() != null) {
            StringBuilder name = new StringBuilder("sentinel:").append(uri.getSentinelMasterId()).append('@');
            List<RedisURI> sentinels = uri.getSentinels();
            for (int i = 0; i < sentinels.size(); i++) {
                name.append(i == 0 ? "" : ",").append(sentinels.get(i).getHost()).append(':')
                        .append(sentinels.get(i).getPort());
            }
            return name.toString();
        }
        return uri.getHost() + ":" + uri.getPort();
    }

    /** A cluster member's name for messages and logs: {@code cluster:host:port|host:port…} of its seeds. */
    static String clusterName(List<RedisURI> seeds) {
        StringBuilder name = new StringBuilder(RedlockConfig.CLUSTER_PREFIX);
        for (int i = 0; i < seeds.size(); i++) {
            name.append(i == 0 ? "" : RedlockConfig.CLUSTER_SEED_SEPARATOR).append(nodeName(seeds.get(i)));
        }
        return name.toString();
    }

    /** A URI string with its user-info (user and password) replaced by {@code ***}. */
    static String maskUri(String uri) {
        return uri == null ? "null" : Secrets.mask(uri);
    }

    /** {@code text} with every known password and URI user-info replaced by {@code ***}. */
    public String scrub(String text) {
        return text == null ? "" : secrets.scrub(text);
    }
}
