package io.redlock.spring.app;

import io.redlock.Lease;
import io.redlock.spring.Locked;
import io.redlock.spring.OnBusy;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/** {@code @Locked} methods whose work ends after they return: a Mono, a Flux and a CompletableFuture. */
public class Reports {

    /** Holds the lock 2.5 s, past its 1 s TTL; answers the lease's fencing token from the Reactor context. */
    @Locked(resource = "'mono'", ttl = "1s")
    public Mono<Long> monoToken() {
        return Mono.delay(Duration.ofMillis(2500))
                .flatMap(tick -> Mono.deferContextual(context -> Mono.just(context.get(Lease.class).fencingToken())));
    }

    /** Ticks until cancelled. */
    @Locked(resource = "'flux'", ttl = "1s")
    public Flux<Long> ticks() {
        return Flux.interval(Duration.ofMillis(50));
    }

    @Locked(resource = "'mono'", maxWait = "0s", onBusy = OnBusy.SKIP)
    public Mono<String> monoIfFree() {
        return Mono.just("ran");
    }

    /** Completes after 2.5 s, past its 1 s TTL. */
    @Locked(resource = "'stage'", ttl = "1s")
    public CompletableFuture<String> stage() {
        return CompletableFuture.supplyAsync(() -> "done", CompletableFuture.delayedExecutor(2500, TimeUnit.MILLISECONDS));
    }

    /** Never completes by itself. */
    @Locked(resource = "'endless'", ttl = "1s")
    public CompletableFuture<String> endless() {
        return new CompletableFuture<>();
    }
}
