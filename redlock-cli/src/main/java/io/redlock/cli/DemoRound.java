package io.redlock.cli;

import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.redlock.Lease;
import io.redlock.Redlock;
import io.redlock.fencing.Fence;
import io.redlock.fencing.FencedRedis;
import io.redlock.fencing.FencedResult;
import io.redlock.testkit.RedisNodes;
import io.redlock.testkit.RedisServer;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One round of the demo: three workers increment a counter in the storage Redis under the lock, while faults are
 * injected one after another. With fencing, every write carries the lease's token and the storage refuses stale
 * ones; without it, the storage is a plain GET/SET.
 */
final class DemoRound {

    static final Duration TTL = Duration.ofMillis(800);
    static final Duration HOLD = Duration.ofMillis(25);
    static final Duration PAUSE = TTL.multipliedBy(2);
    static final int PER_WORKER = 12;
    private static final String[] WORKERS = {"A", "B", "C"};

    private final RedisNodes nodes;
    private final RedisServer storage;
    private final boolean fenced;
    private final boolean clockJump;
    private final PrintWriter out;
    private final String counterKey;
    private final Object print = new Object();

    final AtomicInteger acquisitions = new AtomicInteger();
    final AtomicInteger accepted = new AtomicInteger();
    final AtomicInteger rejected = new AtomicInteger();
    final AtomicInteger acknowledged = new AtomicInteger();
    private final AtomicInteger faultsDone = new AtomicInteger();
    private volatile boolean pauseNext;
    private volatile java.util.concurrent.CompletableFuture<Void> restarted =
            java.util.concurrent.CompletableFuture.completedFuture(null);

    DemoRound(RedisNodes nodes, RedisServer storage, boolean fenced, boolean clockJump, PrintWriter out) {
        this.nodes = nodes;
        this.storage = storage;
        this.fenced = fenced;
        this.clockJump = clockJump;
        this.out = out;
        this.counterKey = fenced ? "counter:fenced" : "counter:plain";
    }

    /** Runs the workers and the faults; returns the final counter. */
    long run() throws InterruptedException {
        storage.redis(r -> r.set(counterKey, "0"));
        List<Thread> workers = new ArrayList<>();
        List<Redlock> clients = new ArrayList<>();
        RedisClient storageClient = RedisClient.create(storage.uri());
        try (StatefulRedisConnection<String, String> connection = storageClient.connect()) {
            for (String name : WORKERS) {
                Redlock redlock = Redlock.builder().nodes(nodes.uriArray()).fencing(fenced)
                        .nodeTimeout(Duration.ofMillis(100))
                        .retry(io.redlock.RetryPolicy.uniform(Duration.ofMillis(20), Duration.ofMillis(60))).build();
                clients.add(redlock);
                Thread worker = new Thread(() -> work(name, redlock, connection), "demo-worker-" + name);
                workers.add(worker);
            }
            workers.forEach(Thread::start);
            for (Thread worker : workers) {
                worker.join(Duration.ofSeconds(60).toMillis());
            }
            restarted.join();
        } finally {
            clients.forEach(Redlock::close);
            storageClient.shutdown();
        }
        return Long.parseLong(storage.get(counterKey));
    }

    private void work(String name, Redlock redlock, StatefulRedisConnection<String, String> connection) {
        RedisCommands<String, String> plain = connection.sync();
        FencedRedis fencedStorage = FencedRedis.on(connection);
        for (int i = 0; i < PER_WORKER; i++) {
            Optional<Lease> acquired = redlock.acquire("counter", TTL, Duration.ofSeconds(10));
            if (acquired.isEmpty()) {
                say("  %s could not get the lock within 10 s", name);
                continue;
            }
            Lease lease = acquired.get();
            int n = acquisitions.incrementAndGet();
            String who = name + (fenced ? " (token " + lease.fencingToken() + ")" : "");
            injectFaults(n, name);
            long read = fenced ? Long.parseLong(fencedStorage.get(counterKey, Fence.of(lease)).orElseThrow())
                    : Long.parseLong(plain.get(counterKey));
            boolean paused = name.equals("A") && pauseNext;
            if (paused) {
                pauseNext = false;
                say("  %s holds the lock, read %d ... and stops for %s (GC pause)", who, read, Durations.format(PAUSE));
                long stopped = System.nanoTime();
                int writtenBefore = acknowledged.get();
                sleep(PAUSE);
                // on a busy machine the others may be slow to take the lock: the pause lasts until one of them wrote
                long deadline = stopped + Duration.ofSeconds(30).toNanos();
                while (acknowledged.get() == writtenBefore && System.nanoTime() - deadline < 0) {
                    sleep(Duration.ofMillis(5));
                }
                Duration pausedFor = Duration.ofNanos(System.nanoTime() - stopped);
                say("  %s wakes up: its lease ran out %s ago, but it does not know; it writes %d",
                        who, Durations.format(pausedFor.minus(TTL).truncatedTo(java.time.temporal.ChronoUnit.MILLIS)),
                        read + 1);
            } else {
                sleep(HOLD);
            }
            write(who, lease, read + 1, fencedStorage, plain, paused);
            lease.release();
        }
    }

    private void write(String who, Lease lease, long value, FencedRedis fencedStorage,
            RedisCommands<String, String> plain, boolean stale) {
        if (fenced) {
            FencedResult<Void> result = fencedStorage.set(counterKey, Long.toString(value), Fence.of(lease));
            if (result.accepted()) {
                accepted.incrementAndGet();
                acknowledged.incrementAndGet();
                say("  %s wrote %d: accepted", who, value);
            } else {
                rejected.incrementAndGet();
                say("  %s wrote %d: REJECTED by the storage, which has seen token %d (fencing at work)", who, value,
                        result.highestToken());
            }
        } else {
            plain.set(counterKey, Long.toString(value));
            accepted.incrementAndGet();
            acknowledged.incrementAndGet();
            say("  %s wrote %d: accepted%s", who, value, stale ? " (a stale write: the increment made meanwhile is lost)"
                    : "");
        }
    }

    /** The faults, one after another, at fixed points of the run (the clock jump only with the clock shim). */
    private void injectFaults(int acquisition, String holder) {
        if (acquisition == 6 && faultsDone.compareAndSet(0, 1)) {
            say("%n>>> Fault 1: worker A is about to stop for %s while holding the lock (the GC pause of Kleppmann's"
                    + " article)", Durations.format(PAUSE));
            pauseNext = true;
        } else if (acquisition == 14 && faultsDone.compareAndSet(1, 2)) {
            RedisServer crashed = nodes.node(1);
            say("%n>>> Fault 2: node 2 (%s) crashes (kill -9); it stays down %s, longer than the TTL (delayed"
                    + " restart: every lock it held has expired by then)", crashed.address(), Durations.format(TTL.plus(Duration.ofMillis(400))));
            restarted = crashed.restartAfter(TTL.plus(Duration.ofMillis(400)))
                    .thenRun(() -> say("  node 2 is back, empty"));
        } else if (clockJump && acquisition == 24 && faultsDone.compareAndSet(2, 3)) {
            RedisServer jumped = nodes.node(3);
            say("%n>>> Fault 3: node 4's clock jumps 60 s forward while %s holds the lock: its copy of the lock"
                    + " expires at once (the holder still has 4 of 5)", holder);
            jumped.shiftClock(Duration.ofSeconds(60));
        }
    }

    private void say(String format, Object... args) {
        synchronized (print) {
            out.printf(format + "%n", args);
            out.flush();
        }
    }

    private static void sleep(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
