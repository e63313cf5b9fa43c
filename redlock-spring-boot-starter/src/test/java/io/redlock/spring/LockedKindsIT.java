package io.redlock.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.MeterRegistry;
import io.redlock.Lease;
import io.redlock.LockNotAcquiredException;
import io.redlock.Redlock;
import io.redlock.RedlockConfigException;
import io.redlock.spring.app.Ledger;
import io.redlock.spring.app.LockedTestApp;
import io.redlock.spring.app.Sections;
import io.redlock.testkit.RedisNodes;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.springframework.context.ConfigurableApplicationContext;
import reactor.core.publisher.Sinks;

/**
 * {@code @Locked} of every kind of lock on three real Redis nodes, checked by another Redlock client on the same
 * nodes: {@code resources} holds all of them while the method runs (blocking and asynchronous), {@code mode = READ}
 * calls run together while a {@code WRITE} call is refused or waits (blocking and reactive), and the meters say which
 * kind each acquisition was.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class LockedKindsIT {

    private static final Duration TTL = Duration.ofSeconds(5);
    private static final long WAIT_SECONDS = 20;

    private RedisNodes nodes;
    private ConfigurableApplicationContext app;
    private Redlock other;
    private Ledger ledger;
    private ExecutorService pool;

    @BeforeAll
    void start() {
        nodes = RedisNodes.start(3);
        app = LockedTestApp.start("kinds", new Sections(), "redlock.nodes=" + String.join(",", nodes.uris()));
        // a node timeout a loaded machine keeps to: a slow reply must not pass for a held resource
        other = Redlock.builder().nodes(nodes.uris()).nodeTimeout(Duration.ofMillis(250)).build();
        ledger = app.getBean(Ledger.class);
        pool = Executors.newCachedThreadPool();
    }

    @AfterAll
    void stop() {
        try {
            if (pool != null) {
                pool.shutdownNow();
            }
            if (other != null) {
                other.close();
            }
            if (app != null) {
                app.close();
            }
        } finally {
            nodes.close();
        }
    }

    @Test
    void severalResourcesAreAllHeldWhileTheMethodRunsAndAllReleasedAfter() throws Exception {
        double before = acquisitions("several", "acquired");
        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        Future<Lease> transfer = pool.submit(() -> ledger.transfer("1", "2", entered, release));
        try {
            assertThat(entered.await(WAIT_SECONDS, TimeUnit.SECONDS)).isTrue();
            assertThat(other.tryAcquire("account:1", TTL)).as("account:1 is held").isEmpty();
            assertThat(other.tryAcquire("account:2", TTL)).as("account:2 is held").isEmpty();
            assertThat(other.tryAcquire("account:3", TTL)).as("another resource is free").hasValueSatisfying(
                    Lease::release);
        } finally {
            release.countDown();
        }
        Lease lease = transfer.get(WAIT_SECONDS, TimeUnit.SECONDS);
        assertThat(lease.resource()).contains("account:1", "account:2");
        assertThat(lease.fencingToken()).isPositive();
        assertThat(lease.isValid()).as("released when the method returned").isFalse();
        assertFree("account:1", "account:2");
        assertThat(acquisitions("several", "acquired")).isEqualTo(before + 1);
    }

    @Test
    void severalResourcesAreHeldUntilTheReturnedStageCompletes() throws Exception {
        CountDownLatch entered = new CountDownLatch(1);
        CompletableFuture<String> done = new CompletableFuture<>();
        CompletableFuture<String> result = ledger.transferLater("4", "5", entered, done);
        try {
            assertThat(entered.await(WAIT_SECONDS, TimeUnit.SECONDS)).isTrue();
            assertThat(other.tryAcquire("account:4", TTL)).isEmpty();
            assertThat(other.tryAcquire("account:5", TTL)).isEmpty();
            assertThat(result).as("held while the stage runs").isNotDone();
        } finally {
            done.complete("moved");
        }
        assertThat(result.get(WAIT_SECONDS, TimeUnit.SECONDS)).isEqualTo("moved");
        assertFree("account:4", "account:5");
    }

    @Test
    void twoEntriesNamingOneResourceFailTheCallBeforeItRuns() {
        CountDownLatch entered = new CountDownLatch(1);
        assertThatThrownBy(() -> ledger.transfer("6", "6", entered, new CountDownLatch(0)))
                .isInstanceOf(RedlockConfigException.class).hasMessageContaining("'account:6'");
        assertThat(entered.getCount()).as("the method did not run").isEqualTo(1);
        assertFree("account:6");
    }

    @Test
    void readersHoldTheLockTogetherWhileAWriterIsRefusedOrWaits() throws Exception {
        double busyWrites = acquisitions("write", "busy");
        double reads = acquisitions("read", "acquired");
        CountDownLatch entered = new CountDownLatch(2);
        CountDownLatch release = new CountDownLatch(1);
        Future<Integer> first;
        Future<Integer> second;
        Future<Integer> writer;
        try {
            first = pool.submit(() -> ledger.read("spring", entered, release));
            second = pool.submit(() -> ledger.read("spring", entered, release));
            assertThat(entered.await(WAIT_SECONDS, TimeUnit.SECONDS)).as("both readers inside at once").isTrue();

            assertThatThrownBy(() -> ledger.writeNow("spring")).isInstanceOf(LockNotAcquiredException.class)
                    .hasMessageContaining("catalog:spring");
            assertThat(ledger.writeIfFree("spring")).as("onBusy = SKIP skips a refused writer").isNull();
            assertThat(other.tryAcquire("catalog:spring", TTL)).as("the exclusive lock too").isEmpty();
            writer = pool.submit(() -> ledger.write("spring"));
            // writers first: once the writer waits, no new reader is let in
            await().atMost(Duration.ofSeconds(WAIT_SECONDS)).until(() -> other.readWriteLock("catalog:spring")
                    .tryAcquireRead(TTL).map(lease -> {
                        lease.release();
                        return false;
                    }).orElse(true));
            assertThat(writer).as("the writer waits while they read").isNotDone();
        } finally {
            release.countDown();
        }
        assertThat(first.get(WAIT_SECONDS, TimeUnit.SECONDS)).isEqualTo(2);
        assertThat(second.get(WAIT_SECONDS, TimeUnit.SECONDS)).isEqualTo(2);
        assertThat(writer.get(WAIT_SECONDS, TimeUnit.SECONDS)).as("the waiting writer ran after the readers left")
                .isZero();
        assertThat(acquisitions("read", "acquired")).isEqualTo(reads + 2);
        assertThat(acquisitions("write", "busy")).isEqualTo(busyWrites + 2);
        assertThat(acquisitions("write", "acquired")).isPositive();
    }

    @Test
    void reactiveReadersHoldTheLockTogetherUntilTheyTerminateAndASkippingWriterGetsNothing() throws Exception {
        CountDownLatch entered = new CountDownLatch(2);
        Sinks.Empty<Void> gate = Sinks.empty();
        CompletableFuture<Long> first = ledger.readUntil("reactive", entered, gate.asMono()).toFuture();
        CompletableFuture<Long> second = ledger.readUntil("reactive", entered, gate.asMono()).toFuture();
        try {
            assertThat(entered.await(WAIT_SECONDS, TimeUnit.SECONDS)).as("both readers inside at once").isTrue();
            assertThat(ledger.writeLines("reactive").collectList().block(Duration.ofSeconds(WAIT_SECONDS)))
                    .as("a Flux skipped while they read").isEmpty();
            assertThatThrownBy(() -> ledger.writeNow("reactive")).isInstanceOf(LockNotAcquiredException.class);
        } finally {
            gate.tryEmitEmpty();
        }
        assertThat(first.get(WAIT_SECONDS, TimeUnit.SECONDS)).isPositive();
        assertThat(second.get(WAIT_SECONDS, TimeUnit.SECONDS)).isPositive();
        assertThat(ledger.writeLines("reactive").collectList().block(Duration.ofSeconds(WAIT_SECONDS)))
                .containsExactly("written", "reactive");
    }

    @Test
    void noMoreCallsThanPermitsRunAtOnceAndTheNextIsSkippedUntilOneLeaves() throws Exception {
        double permits = acquisitions("permit", "acquired");
        CountDownLatch entered = new CountDownLatch(2);
        CountDownLatch release = new CountDownLatch(1);
        Future<Integer> first;
        Future<Integer> second;
        try {
            first = pool.submit(() -> ledger.export("daily", entered, release));
            second = pool.submit(() -> ledger.export("daily", entered, release));
            assertThat(entered.await(WAIT_SECONDS, TimeUnit.SECONDS)).as("both permits held at once").isTrue();
            assertThat(ledger.export("daily", new CountDownLatch(0), new CountDownLatch(0)))
                    .as("a third call is skipped").isNull();
            assertThat(other.semaphore("exports:daily", 2).availablePermits()).isZero();
        } finally {
            release.countDown();
        }
        assertThat(first.get(WAIT_SECONDS, TimeUnit.SECONDS)).isEqualTo(2);
        assertThat(second.get(WAIT_SECONDS, TimeUnit.SECONDS)).isEqualTo(2);
        assertThat(other.semaphore("exports:daily", 2).availablePermits()).isEqualTo(2);
        assertThat(ledger.export("daily", new CountDownLatch(0), new CountDownLatch(0))).isEqualTo(1);
        assertThat(acquisitions("permit", "acquired")).isEqualTo(permits + 3);
        assertThat(acquisitions("permit", "busy")).isPositive();
    }

    /** Another client gets each resource at once, then lets it go. */
    private void assertFree(String... resources) {
        for (String resource : resources) {
            Optional<Lease> lease = other.tryAcquire(resource, TTL);
            assertThat(lease).as("%s is free", resource).isPresent();
            lease.get().release();
        }
    }

    private double acquisitions(String kind, String result) {
        return app.getBean(MeterRegistry.class).get("redlock.acquire").tags("kind", kind, "result", result).timer()
                .count();
    }
}
