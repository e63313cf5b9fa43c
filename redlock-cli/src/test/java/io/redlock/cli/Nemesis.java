package io.redlock.cli;

import io.redlock.cli.NemesisFault.Kind;
import io.redlock.testkit.RedisServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * The scheduler of random faults of a randomized run: from a seed, it draws a fault, its target and how long it lasts,
 * every few hundred milliseconds, and heals each fault when its time is up. At most {@link #MINORITY} lock nodes are
 * faulted at once (each by one fault), so a majority always answers; a {@code redlock run} process is paused at most
 * once at a time. The draws replay from the seed; when each fault lands among the clients' calls does not.
 */
final class Nemesis implements AutoCloseable {

    static final int MINORITY = 2;

    private final NemesisNodes nodes;
    private final Duration ttl;
    private final Function<Random, Optional<Cli>> clientToPause;
    private final Random random;
    private final List<NemesisFault> done = Collections.synchronizedList(new ArrayList<>());
    private final Set<Integer> faulted = new HashSet<>();
    private final ExecutorService faults = Executors.newCachedThreadPool(r -> new Thread(r, "nemesis-fault"));
    private final Thread scheduler = new Thread(this::schedule, "nemesis");
    private volatile boolean stopping;
    private boolean clientPaused;

    /**
     * Faults on {@code nodes}, lasting about {@code ttl} (the longest lease's), and on the process
     * {@code clientToPause} picks (none if empty), from {@code seed}.
     */
    Nemesis(NemesisNodes nodes, Duration ttl, Function<Random, Optional<Cli>> clientToPause, long seed) {
        this.nodes = nodes;
        this.ttl = ttl;
        this.clientToPause = clientToPause;
        this.random = new Random(seed);
    }

    Nemesis start() {
        scheduler.start();
        return this;
    }

    /** The faults injected so far, healed ones only. */
    List<NemesisFault> faults() {
        synchronized (done) {
            return List.copyOf(done);
        }
    }

    private void schedule() {
        Kind[] kinds = Kind.values();
        while (!stopping) {
            pause(Duration.ofMillis(100 + random.nextInt(500)));
            Kind kind = kinds[random.nextInt(kinds.length)];
            Duration lasting = ttl.multipliedBy(20 + random.nextInt(230)).dividedBy(100);
            int amount = random.nextInt(100);
            if (kind.onNode()) {
                int node = random.nextInt(NemesisNodes.NODES);
                if (claim(node)) {
                    faults.execute(() -> onNode(kind, node, lasting, amount));
                }
            } else {
                Optional<Cli> client = clientToPause.apply(random);
                if (client.isPresent() && claimClient()) {
                    faults.execute(() -> onClient(client.get(), lasting));
                }
            }
        }
    }

    private synchronized boolean claim(int node) {
        return !stopping && faulted.size() < MINORITY && faulted.add(node);
    }

    private synchronized boolean claimClient() {
        if (stopping || clientPaused) {
            return false;
        }
        clientPaused = true;
        return true;
    }

    /** {@code amount} (0 to 99) sizes a clock jump (2 to 101 TTLs) or a latency (5 % to 40 % of the TTL). */
    private void onNode(Kind kind, int index, Duration lasting, int amount) {
        RedisServer node = nodes.nodes.node(index);
        long start = System.nanoTime();
        try {
            switch (kind) {
                case NODE_PAUSED -> {
                    node.pause();
                    pause(lasting);
                    node.resume();
                }
                case NODE_RESTARTED_LATE -> node.restartAfter(ttl.multipliedBy(3).dividedBy(2)).join();
                case NODE_RESTARTED_AT_ONCE -> node.restart();
                case CLOCK_JUMP -> {
                    node.shiftClock(ttl.multipliedBy(2 + amount));
                    pause(lasting);
                    node.shiftClock(Duration.ZERO);
                }
                case NODE_SLOW -> {
                    nodes.proxies.get(index).delay(ttl.multipliedBy(5 + amount * 35 / 100).dividedBy(100));
                    pause(lasting);
                    nodes.proxies.get(index).heal();
                }
                case PARTITION -> {
                    nodes.proxies.get(index).blackhole(true);
                    pause(lasting);
                    nodes.proxies.get(index).heal();
                }
                default -> throw new IllegalArgumentException(kind + " is not a node's fault");
            }
        } finally {
            done.add(new NemesisFault(kind, "node-" + index, start, System.nanoTime()));
            synchronized (this) {
                faulted.remove(index);
            }
        }
    }

    private void onClient(Cli client, Duration lasting) {
        long start = System.nanoTime();
        try {
            client.signal("STOP");
            pause(lasting);
        } catch (Exception e) {
            // the process ended meanwhile: nothing was paused for long
        } finally {
            try {
                client.signal("CONT");
            } catch (Exception e) {
                // it ended: nothing to resume
            }
            done.add(new NemesisFault(Kind.CLIENT_PAUSED, "redlock-run-" + client.pid(), start, System.nanoTime()));
            synchronized (this) {
                clientPaused = false;
            }
        }
    }

    private static void pause(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Stops drawing faults and waits (bounded) until every fault in progress has healed. */
    @Override
    public void close() {
        stopping = true;
        try {
            scheduler.join(Duration.ofSeconds(10).toMillis());
            faults.shutdown();
            if (!faults.awaitTermination(30, TimeUnit.SECONDS)) {
                throw new AssertionError("a fault did not heal within 30 s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
