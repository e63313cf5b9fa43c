package io.redlock.internal;

import io.redlock.Lease;
import io.redlock.RedlockConfigException;
import io.redlock.ReleaseResult;
import io.redlock.internal.node.NodeSet;
import io.redlock.internal.protocol.Keys;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * Extend and release of a lease acquired elsewhere — another process, say a shell script using the {@code redlock}
 * command — known only by its resource and value. The handle it makes has an unknown token, and its keys are deemed
 * to live for the default TTL (the real one is unknown here).
 */
final class ByValue {

    private final Engine engine;
    private final Extension extension;
    private final Releases releases;

    ByValue(Engine engine, Extension extension, Releases releases) {
        this.engine = engine;
        this.extension = extension;
        this.releases = releases;
    }

    /** The renewed handle if a majority still held {@code value} and confirmed the extension. */
    CompletableFuture<Optional<Lease>> extend(Keys keys, String resource, String value, Duration ttl) {
        RedlockLease adopted = adopt(keys, resource, value);
        return extension.extend(adopted, ttl).thenApply(outcome ->
                outcome == ExtendOutcome.EXTENDED ? Optional.<Lease>of(adopted) : Optional.<Lease>empty());
    }

    /** How many nodes held {@code value} and deleted it, and which did not answer. */
    CompletableFuture<ReleaseResult> release(Keys keys, String resource, String value) {
        return releases.releaseValue(adopt(keys, resource, value));
    }

    private RedlockLease adopt(Keys keys, String resource, String value) {
        if (value == null || value.isBlank()) {
            throw new RedlockConfigException("lease value must not be blank");
        }
        NodeSet nodes = engine.nodes();
        List<CompletableFuture<String>> none = nodes.send((i, node) -> CompletableFuture.completedFuture("OK"));
        long now = nodes.ticker().read();
        return new RedlockLease(engine, nodes.ticker(), resource, keys, value, now,
                now + engine.config().defaultTtl().toNanos(), none, Engine.UNKNOWN_TOKEN);
    }
}
