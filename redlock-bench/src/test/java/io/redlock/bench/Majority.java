package io.redlock.bench;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;

/** Waits for a majority of per-node replies: done once a majority succeeded, failed once that became impossible. */
final class Majority {

    private Majority() {
    }

    static <T> CompletableFuture<Void> of(List<? extends CompletionStage<T>> replies, Predicate<T> success) {
        int total = replies.size();
        int needed = total / 2 + 1;
        AtomicInteger succeeded = new AtomicInteger();
        AtomicInteger missed = new AtomicInteger();
        CompletableFuture<Void> decided = new CompletableFuture<>();
        for (CompletionStage<T> reply : replies) {
            reply.whenComplete((value, error) -> {
                if (error == null && success.test(value)) {
                    if (succeeded.incrementAndGet() == needed) {
                        decided.complete(null);
                    }
                } else if (missed.incrementAndGet() == total - needed + 1) {
                    decided.completeExceptionally(new IllegalStateException(
                            "no majority: " + (total - needed + 1) + " of " + total + " nodes said no"
                                    + (error == null ? " (last reply " + value + ")" : " (" + error + ")")));
                }
            });
        }
        return decided;
    }
}
