package io.redlock.spring.app;

import io.redlock.Lease;
import io.redlock.spring.Leases;
import io.redlock.spring.LockMode;
import io.redlock.spring.Locked;
import io.redlock.spring.OnBusy;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * {@code @Locked} methods of every kind of lock: two accounts at once, the read and the write lock of a catalog, a
 * permit of the exports' semaphore; held
 * until the test lets them go (a latch, a future, a gate).
 */
public class Ledger {

    /** How many {@link #read} calls are inside their method right now. */
    private final AtomicInteger readersInside = new AtomicInteger();

    /** Holds both accounts until {@code release}; answers its lease. */
    @Locked(resources = {"'account:' + #from", "'account:' + #to"}, maxWait = "0s")
    public Lease transfer(String from, String to, CountDownLatch entered, CountDownLatch release) {
        entered.countDown();
        await(release);
        return Leases.current().orElseThrow();
    }

    /** Holds both accounts, past the 600 ms TTL, until {@code done} completes. */
    @Locked(resources = {"'account:' + #from", "'account:' + #to"}, ttl = "600ms", maxWait = "0s")
    public CompletableFuture<String> transferLater(String from, String to, CountDownLatch entered,
            CompletableFuture<String> done) {
        entered.countDown();
        return done;
    }

    /**
     * Reads the catalog until {@code release}, once every reader {@code entered} counts is inside; answers how many
     * readers were inside then, itself included.
     */
    @Locked(resource = "'catalog:' + #name", mode = LockMode.READ, maxWait = "0s")
    public int read(String name, CountDownLatch entered, CountDownLatch release) {
        readersInside.incrementAndGet();
        try {
            entered.countDown();
            await(entered);
            int together = readersInside.get();
            await(release);
            return together;
        } finally {
            readersInside.decrementAndGet();
        }
    }

    /** Writes the catalog if it can at once; answers how many readers were inside meanwhile. */
    @Locked(resource = "'catalog:' + #name", mode = LockMode.WRITE, maxWait = "0s")
    public int writeNow(String name) {
        return readersInside.get();
    }

    @Locked(resource = "'catalog:' + #name", mode = LockMode.WRITE, maxWait = "0s", onBusy = OnBusy.SKIP)
    public Integer writeIfFree(String name) {
        return readersInside.get();
    }

    /** Waits for the write lock; answers how many readers were inside meanwhile. */
    @Locked(resource = "'catalog:' + #name", mode = LockMode.WRITE, maxWait = "20s")
    public int write(String name) {
        return readersInside.get();
    }

    /** Reads the catalog, past the 600 ms TTL, until {@code gate} completes; answers the read lease's token. */
    @Locked(resource = "'catalog:' + #name", mode = LockMode.READ, ttl = "600ms", maxWait = "0s")
    public Mono<Long> readUntil(String name, CountDownLatch entered, Mono<Void> gate) {
        return Mono.fromRunnable(entered::countDown).then(gate)
                .then(Mono.deferContextual(context -> Mono.just(context.get(Lease.class).fencingToken())));
    }

    @Locked(resource = "'catalog:' + #name", mode = LockMode.WRITE, maxWait = "0s", onBusy = OnBusy.SKIP)
    public Flux<String> writeLines(String name) {
        return Flux.just("written", name);
    }

    /** How many {@link #export} calls are inside their method right now. */
    private final AtomicInteger exportsInside = new AtomicInteger();

    /**
     * Exports under one of two permits until {@code release}, once every caller {@code entered} counts is inside or
     * refused; answers how many exports were inside then, itself included.
     */
    @Locked(resource = "'exports:' + #name", permits = 2, maxWait = "0s", onBusy = OnBusy.SKIP)
    public Integer export(String name, CountDownLatch entered, CountDownLatch release) {
        exportsInside.incrementAndGet();
        try {
            entered.countDown();
            await(entered);
            int together = exportsInside.get();
            await(release);
            return together;
        } finally {
            exportsInside.decrementAndGet();
        }
    }

    private static void await(CountDownLatch latch) {
        try {
            if (!latch.await(20, TimeUnit.SECONDS)) {
                throw new IllegalStateException("never counted down");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
