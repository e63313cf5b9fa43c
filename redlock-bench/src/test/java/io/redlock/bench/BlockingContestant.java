package io.redlock.bench;

import java.util.concurrent.CompletionStage;

/**
 * A contestant measured with blocking callers: a thread per slot waits for each pair. redlock-java's through its
 * blocking API ({@code tryAcquire}, then {@code Lease.release()}); bare Lettuce's by waiting on its asynchronous pair,
 * the cheapest blocking Redlock one can write on Lettuce.
 */
final class BlockingContestant implements Contestant {

    /** One pair on the calling thread. */
    @FunctionalInterface
    interface Pair {
        void run(String resource) throws Exception;
    }

    private final Contestant base;
    private final Pair pair;

    private BlockingContestant(Contestant base, Pair pair) {
        this.base = base;
        this.pair = pair;
    }

    /** redlock-java through its blocking API. */
    static BlockingContestant redlock(RedlockContestant redlock) {
        return new BlockingContestant(redlock, redlock::pairThroughBlockingApi);
    }

    /** Any asynchronous contestant, its caller waiting for each pair. */
    static BlockingContestant waitingOn(Contestant async) {
        return new BlockingContestant(async, resource -> async.pair(resource, 0).toCompletableFuture().get());
    }

    @Override
    public String name() {
        return base.name() + ", blocking";
    }

    @Override
    public String id() {
        return base.id() + "-blocking";
    }

    @Override
    public int nodes() {
        return base.nodes();
    }

    @Override
    public boolean blocking() {
        return true;
    }

    @Override
    public void pairBlocking(String resource, int slot) throws Exception {
        pair.run(resource);
    }

    @Override
    public CompletionStage<Void> pair(String resource, int slot) {
        throw new UnsupportedOperationException(name() + " is measured with blocking callers");
    }

    @Override
    public void close() {
        base.close();
    }
}
