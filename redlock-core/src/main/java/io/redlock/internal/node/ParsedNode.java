package io.redlock.internal.node;

import io.lettuce.core.RedisURI;
import java.util.List;

/**
 * One quorum member as parsed from its URI string: a server (or a sentinel-watched master) by its URI, or a Redis
 * Cluster by its seeds (then {@code uri} is the first seed).
 */
public record ParsedNode(RedisURI uri, List<RedisURI> clusterSeeds) {

    public ParsedNode {
        clusterSeeds = List.copyOf(clusterSeeds);
    }

    /** This member with {@code password} on every URI that gives none (copies: a URI handed in is not changed). */
    public ParsedNode withPassword(CharSequence password) {
        if (!cluster()) {
            return server(withPassword(uri, password));
        }
        List<RedisURI> seeds = clusterSeeds.stream().map(seed -> withPassword(seed, password)).toList();
        return new ParsedNode(seeds.get(0), seeds);
    }

    private static RedisURI withPassword(RedisURI uri, CharSequence password) {
        char[] given = uri.getPassword();
        return given != null && given.length > 0 ? uri : RedisURI.builder(uri).withPassword(password).build();
    }

    static ParsedNode server(RedisURI uri) {
        return new ParsedNode(uri, List.of());
    }

    boolean cluster() {
        return !clusterSeeds.isEmpty();
    }

    /** Every URI of the member: its seeds, or its one URI. */
    List<RedisURI> uris() {
        return cluster() ? clusterSeeds : List.of(uri);
    }
}
