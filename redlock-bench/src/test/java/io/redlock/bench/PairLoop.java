package io.redlock.bench;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;

/**
 * Keeps one pair in flight per resource (a slot): as soon as a slot's pair completes, the next one starts, for as
 * long as {@code another} says so. No thread per slot: the next pair starts from the completion callback.
 */
final class PairLoop {

    /** Told about every pair; called concurrently from the contestant's I/O threads. */
    interface Sink {
        void completed(long startNanos, long endNanos);

        void failed(Throwable error);
    }

    private PairLoop() {
    }

    /**
     * Runs the slots until {@code another} returns false (asked once before each pair, from any thread) and waits
     * until every slot's last pair completed, at most {@code drainLimit}.
     */
    static void run(Contestant contestant, List<String> resources, BooleanSupplier another, Sink sink,
            Duration drainLimit) {
        CompletableFuture<?>[] slots = new CompletableFuture<?>[resources.size()];
        for (int i = 0; i < slots.length; i++) {
            slots[i] = new Slot(contestant, resources.get(i), i, another, sink).start();
        }
        try {
            CompletableFuture.allOf(slots).get(drainLimit.toNanos(), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            throw new IllegalStateException(contestant.name() + ": pairs still in flight " + drainLimit
                    + " after the end", e);
        } catch (ExecutionException e) {
            throw new IllegalStateException(contestant.name() + ": a slot broke", e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    private static final class Slot {
        private final Contestant contestant;
        private final String resource;
        private final int index;
        private final BooleanSupplier another;
        private final Sink sink;
        private final CompletableFuture<Void> stopped = new CompletableFuture<>();

        Slot(Contestant contestant, String resource, int index, BooleanSupplier another, Sink sink) {
            this.contestant = contestant;
            this.resource = resource;
            this.index = index;
            this.another = another;
            this.sink = sink;
        }

        CompletableFuture<Void> start() {
            next();
            return stopped;
        }

        /** Loops while pairs complete at once (no deep recursion), continues from the callback otherwise. */
        private void next() {
            try {
                while (another.getAsBoolean()) {
                    long start = System.nanoTime();
                    CompletableFuture<Void> pair = startPair();
                    if (!pair.isDone()) {
                        pair.whenComplete((ignored, error) -> {
                            record(start, error);
                            next();
                        });
                        return;
                    }
                    record(start, pair.handle((ignored, error) -> error).join());
                }
                stopped.complete(null);
            } catch (RuntimeException | Error e) {
                stopped.completeExceptionally(e);
            }
        }

        private CompletableFuture<Void> startPair() {
            try {
                return contestant.pair(resource, index).toCompletableFuture();
            } catch (RuntimeException e) {
                return CompletableFuture.failedFuture(e);
            }
        }

        private void record(long start, Throwable error) {
            if (error == null) {
                sink.completed(start, System.nanoTime());
            } else {
                sink.failed(error instanceof CompletionException && error.getCause() != null ? error.getCause() : error);
            }
        }
    }
}
