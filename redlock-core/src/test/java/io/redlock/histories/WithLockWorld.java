package io.redlock.histories;

import static org.assertj.core.api.Assertions.assertThat;

import io.redlock.Lease;
import io.redlock.LeaseLostException;
import io.redlock.LockNotAcquiredException;
import io.redlock.LockOptions;
import io.redlock.Redlock;
import io.redlock.fencing.Fence;
import io.redlock.reactive.ReactiveRedlock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import reactor.core.Exceptions;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * One generated program of nested {@code withLock} frames: blocking {@code withLock}, {@code withLockAsync} and
 * reactive {@code withLock}, on two resources, with writes, losses, a rival client and exceptions inside them. Each
 * frame's work runs the steps up to its {@code CLOSE}; an asynchronous or reactive frame's work runs on a thread of its
 * own, a blocking frame's on its caller's. The rules, as properties:
 * <ul>
 *   <li>a blocking frame nested on the same thread in a blocking frame of the same resource whose lease was lost
 *       throws {@link LeaseLostException} without acquiring; one nested in a frame whose lease is valid waits its
 *       maximum wait and throws {@link LockNotAcquiredException}; otherwise the lock is granted, with a token above
 *       every earlier one;</li>
 *   <li>a frame whose lease was lost while its work ran ends with {@link LeaseLostException}, whatever the work did; a
 *       blocking frame's thread is interrupted by the loss; else the work's exception, or its value;</li>
 *   <li>the rival gets a frame's resource only once its lease is lost, never while it is valid;</li>
 *   <li>the storage accepts exactly the writes with the highest token; a frame's keys are gone when it ends.</li>
 * </ul>
 */
final class WithLockWorld {

    /** The three ways to run work under a lock. */
    enum Api { BLOCKING, ASYNC, REACTIVE }

    static final LockOptions OPTIONS = LockOptions.builder().ttl(Duration.ofSeconds(2))
            .maxWait(Duration.ofMillis(300)).build();
    private static final Duration WITHIN = Duration.ofSeconds(20);
    private static final String DONE = "done";

    /** The exception a {@code THROW} step throws from a frame's work, and how a cancelled reactive work stops. */
    static final class Boom extends RuntimeException {
        Boom() {
            super("thrown by the work", null, false, false);
        }
    }

    /** One open frame: its resource, the thread its work runs on, and its lease once granted. */
    private static final class Frame {
        final WithLockStep open;
        final String resource;
        final int caller;
        int thread;
        Lease lease;
        boolean lost;

        Frame(WithLockStep open, String resource, int caller) {
            this.open = open;
            this.resource = resource;
            this.caller = caller;
        }
    }

    private final HistoryNodes bench;
    private final Redlock mine;
    private final Redlock rival;
    private final NodeFailures failures;
    private final ExecutorService bodies;
    private final List<String> resources;
    private final List<FencedStorage> storages = new ArrayList<>();
    private final List<Frame> open = new ArrayList<>();
    final List<String> ran = new ArrayList<>();
    private List<WithLockStep> program;
    private int cursor;
    private int threads;
    /** The last token granted on each resource (each has its own fencing counter). */
    private final long[] lastTokens = new long[2];
    /** The first check that failed inside a frame's work, which the frame may have wrapped or swallowed. */
    private volatile AssertionError failed;

    WithLockWorld(HistoryNodes bench, Redlock mine, Redlock rival, NodeFailures failures, ExecutorService bodies,
            String name) {
        this.bench = bench;
        this.mine = mine;
        this.rival = rival;
        this.failures = failures;
        this.bodies = bodies;
        this.resources = List.of(name + "-r0", name + "-r1");
        resources.forEach(r -> storages.add(new FencedStorage(bench.fenced, r + ":balance")));
    }

    /** Runs the whole program from the top level (thread 0), then checks that no key is left. */
    void run(List<WithLockStep> steps) throws InterruptedException {
        program = steps;
        cursor = 0;
        work(null, 0);
        ran.add("(end)");
        for (String resource : resources) {
            assertThat(bench.goneEverywhere(resource, WITHIN)).as("no key %s left: %s", resource,
                    bench.holdersOf(resource)).isTrue();
        }
    }

    /** Runs steps as the work of {@code frame} (null: the top level) on {@code thread}, until its CLOSE or the end. */
    private void work(Frame frame, int thread) throws InterruptedException {
        while (cursor < program.size()) {
            WithLockStep step = program.get(cursor++);
            if (step.op() == WithLockStep.Op.CLOSE && frame != null) {
                ran.add("CLOSE");
                return;
            }
            if (frame == null && step.op() != WithLockStep.Op.OPEN
                    && step.op() != WithLockStep.Op.MINORITY_FAULT) {
                continue; // nothing to act on outside a frame
            }
            ran.add(step.toString());
            switch (step.op()) {
                case OPEN -> open(step, thread);
                case WRITE -> storages.get(resources.indexOf(frame.resource)).write(frame.lease, "frame");
                case LOSE -> lose(frame);
                case RIVAL_TRIES -> rivalTries(frame);
                case THROW -> throw new Boom();
                case MINORITY_FAULT -> step.fault().on(bench);
                default -> { }
            }
        }
    }

    private void open(WithLockStep step, int thread) {
        Frame frame = new Frame(step, resources.get(step.resource()), thread);
        boolean refusedLost = open.stream().anyMatch(e -> e.resource.equals(frame.resource)
                && step.api() == Api.BLOCKING && e.open.api() == Api.BLOCKING && e.thread == thread
                && LockWorld.invalid(e.lease));
        boolean heldValid = open.stream().anyMatch(e -> e.resource.equals(frame.resource)
                && !LockWorld.invalid(e.lease));
        long failed = failures.count();
        Optional<Throwable> thrown = call(frame);
        String what = step + " on thread " + thread + ": " + thrown.map(Throwable::toString).orElse("returned")
                + ", open " + open.size();
        if (refusedLost) {
            assertThat(thrown).as("%s: nested in a broken frame of the resource", what)
                    .containsInstanceOf(LeaseLostException.class);
            assertThat(frame.lease).as("%s: not acquired", what).isNull();
            return;
        }
        if (frame.lease == null) {
            assertThat(thrown).as(what).containsInstanceOf(LockNotAcquiredException.class);
            assertThat(heldValid || failures.count() > failed).as("%s: not granted, though free", what).isTrue();
            return;
        }
        assertThat(heldValid).as("%s: granted while an enclosing frame holds the resource", what).isFalse();
        if (frame.lost) {
            assertThat(thrown).as("%s: the work's lease was lost", what).containsInstanceOf(LeaseLostException.class);
        } else if (thrown.isPresent()) {
            assertThat(thrown).as(what).containsInstanceOf(Boom.class);
        }
        try {
            assertThat(bench.valueGone(frame.resource, frame.lease.value(), WITHIN)).as("%s: its key is deleted",
                    what).isTrue();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Opens {@code frame} with its API; what it threw, if anything (a check that failed inside it is rethrown). */
    private Optional<Throwable> call(Frame frame) {
        Throwable thrown = null;
        try {
            switch (frame.open.api()) {
                case BLOCKING -> mine.withLock(frame.resource, OPTIONS, lease -> body(frame, lease, frame.caller));
                case ASYNC -> mine.withLockAsync(frame.resource, OPTIONS, lease -> CompletableFuture.supplyAsync(
                        () -> body(frame, lease, ++threads), bodies)).toCompletableFuture()
                        .get(WITHIN.toSeconds(), TimeUnit.SECONDS);
                case REACTIVE -> ReactiveRedlock.of(mine).withLock(frame.resource, OPTIONS, lease -> Mono
                        .fromCallable(() -> body(frame, lease, ++threads)).subscribeOn(Schedulers.boundedElastic()))
                        .blockLast(WITHIN);
            }
        } catch (Exception e) {
            thrown = e;
        }
        if (failed != null) {
            throw failed; // wherever the work ran, and whatever the frame made of it
        }
        while (thrown instanceof ExecutionException || thrown instanceof java.util.concurrent.CompletionException
                || thrown != null && Exceptions.unwrap(thrown) != thrown) {
            thrown = thrown instanceof ExecutionException || thrown instanceof java.util.concurrent.CompletionException
                    ? thrown.getCause() : Exceptions.unwrap(thrown);
        }
        return Optional.ofNullable(thrown);
    }

    /** A granted frame's work: its token rises, then the steps up to its CLOSE run inside it. */
    private String body(Frame frame, Lease lease, int thread) {
        rises(frame.resource, lease, frame.open.toString());
        frame.lease = lease;
        frame.thread = thread;
        open.add(frame);
        try {
            work(frame, thread);
        } catch (AssertionError e) {
            if (failed == null) {
                failed = e;
            }
            throw e;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } finally {
            open.remove(frame);
        }
        return DONE;
    }

    /**
     * The frame's keys expire on every node: its watchdog sees the loss, and a blocking frame's thread is interrupted;
     * a reactive frame's work is cancelled, so it ends here. Waits without sleeping, which an interrupt would end.
     */
    private void lose(Frame frame) {
        if (frame.lost) {
            return;
        }
        frame.lost = true;
        bench.expireEverywhere(frame.resource);
        awaitWithoutSleeping(() -> frame.lease.lossReason().isPresent(), frame.open + ": the watchdog sees the loss");
        if (frame.open.api() == Api.BLOCKING) {
            awaitWithoutSleeping(() -> Thread.currentThread().isInterrupted(),
                    frame.open + ": the working thread is interrupted");
        }
        if (frame.open.api() == Api.REACTIVE) {
            throw new Boom(); // the loss cancelled the work: it stops here (its thread may be interrupted any moment)
        }
        Thread.interrupted(); // the work carries on, as work that handled the interrupt would
    }

    private static void awaitWithoutSleeping(java.util.function.BooleanSupplier condition, String what) {
        long deadline = System.nanoTime() + WITHIN.toNanos();
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime() - deadline).as("%s within %s", what, WITHIN).isNegative();
            java.util.concurrent.locks.LockSupport.parkNanos(1_000_000);
        }
    }

    /** A grant's token is above every earlier one of its resource. */
    private void rises(String resource, Lease lease, String who) {
        int index = resources.indexOf(resource);
        assertThat(lease.fencingToken()).as("%s's token on %s after %d", who, resource, lastTokens[index])
                .isGreaterThan(lastTokens[index]);
        lastTokens[index] = lease.fencingToken();
    }

    /** The rival tries the frame's resource: granted only once the frame's lease is lost; it writes and releases. */
    private void rivalTries(Frame frame) throws InterruptedException {
        Optional<Lease> got = rival.tryAcquire(frame.resource, Duration.ofSeconds(30));
        if (got.isEmpty()) {
            return;
        }
        Lease lease = got.get();
        assertThat(LockWorld.invalid(frame.lease)).as("the rival got %s while the frame's lease is valid",
                frame.resource).isTrue();
        rises(frame.resource, lease, "the rival");
        storages.get(resources.indexOf(frame.resource)).write(new Fence(lease.fencingToken(), lease.value()),
                "rival");
        lease.release();
        assertThat(bench.valueGone(frame.resource, lease.value(), WITHIN)).as("the rival's key is deleted").isTrue();
    }
}
