package io.redlock.internal.node;

import io.lettuce.core.api.StatefulRedisConnection;
import java.util.concurrent.CompletableFuture;

/** Batched connections for tests, whose replies are handed over through their flusher as a node client's are. */
final class TestConnections {

    private TestConnections() {
    }

    static BatchedConnection batched(StatefulRedisConnection<String, String> lettuce, Flusher flusher,
            ScriptBatch batch) {
        return new BatchedConnection(lettuce, flusher, new BatchedConnection.Sink() {
            @Override
            public <T> void settle(BatchedConnection c, CompletableFuture<T> reply, T value, Throwable failure) {
                flusher.completeAsReply(reply, value, failure);
            }
        }, batch);
    }
}
