package io.redlock.bench;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Function;

/**
 * A kind of lock of one library in the harness: measured with blocking callers (a thread per slot, {@link
 * ThreadLoop}), whose pair is acquire (waiting up to {@code maxWait}, TTL {@value #TTL_SECONDS} s) → {@code hold} of
 * work (parked, no CPU) → release, on the window's resources as {@link KindWindow} shapes them; the writer of a
 * read-write lock rests {@code writerRest} before each pair, outside its timing, so that the mix stays read-heavy. Every
 * hold is checked ({@link HoldCheck}). What the harness does not count is counted here, over everything the contestant
 * ran (JIT warm-up, warm-ups and windows): waits that ran out, other failures, violations, the most holders at once,
 * reads and writes. A wait that ran out fails the pair, as any failure does: it counts in no throughput.
 */
final class KindContestant implements Contestant {

    static final long TTL_SECONDS = 10;
    private static final Duration TTL = Duration.ofSeconds(TTL_SECONDS);

    private final Kind kind;
    private final String library;
    private final String name;
    private final String id;
    private final int nodes;
    private final BenchConfig.KindSettings settings;
    /** The library's side: its lock of this kind for one window. */
    private final Function<KindWindow, KindLock> opener;

    private final LongAdder timeouts = new LongAdder();
    private final LongAdder failures = new LongAdder();
    private final LongAdder violations = new LongAdder();
    private final LongAdder reads = new LongAdder();
    private final LongAdder writes = new LongAdder();
    private final AtomicInteger most = new AtomicInteger();
    private volatile String firstFailure;

    /** Set by {@link #startWindow} before the window's threads start (Thread.start orders it before their reads). */
    private volatile KindWindow window;
    private volatile KindLock lock;
    private volatile HoldCheck check;

    KindContestant(Kind kind, String library, String name, String id, int nodes, BenchConfig.KindSettings settings,
            Function<KindWindow, KindLock> opener) {
        this.kind = kind;
        this.library = library;
        this.name = name;
        this.id = id;
        this.nodes = nodes;
        this.settings = settings;
        this.opener = opener;
    }

    Kind kind() {
        return kind;
    }

    /** {@code redlock-java} or {@code Redisson}. */
    String library() {
        return library;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public String id() {
        return id;
    }

    @Override
    public int nodes() {
        return nodes;
    }

    @Override
    public boolean blocking() {
        return true;
    }

    @Override
    public java.util.concurrent.CompletionStage<Void> pair(String resource, int slot) {
        throw new UnsupportedOperationException(name + " is measured with blocking callers");
    }

    @Override
    public void startWindow(String keyPrefix, int inFlight) {
        KindWindow next = new KindWindow(kind, keyPrefix, inFlight, settings.several(), settings.permits());
        check = new HoldCheck(next, violations, most);
        lock = opener.apply(next);
        window = next;
    }

    @Override
    public void beforePair(int slot) throws InterruptedException {
        if (window.writer(slot) && !settings.writerRest().isZero()) {
            TimeUnit.NANOSECONDS.sleep(settings.writerRest().toNanos());
        }
    }

    @Override
    public void pairBlocking(String resource, int slot) throws Exception {
        KindLock.Held held;
        try {
            held = lock.acquire(slot, TTL, settings.maxWait());
        } catch (InterruptedException e) {
            throw e;
        } catch (Exception | Error e) {
            failed(e);
            throw e;
        }
        if (held == null) {
            timeouts.increment();
            throw new IllegalStateException(name + ": the wait of " + settings.maxWait() + " ran out, slot " + slot);
        }
        (window.writer(slot) ? writes : reads).increment();
        check.enter(slot);
        try {
            if (!settings.hold().isZero()) {
                LockSupport.parkNanos(settings.hold().toNanos());
            }
        } finally {
            check.leave(slot);
        }
        try {
            held.release();
        } catch (Exception | Error e) {
            failed(e);
            throw e;
        }
    }

    private void failed(Throwable error) {
        failures.increment();
        if (firstFailure == null) {
            firstFailure = String.valueOf(error);
        }
    }

    /** What the harness does not count, so far. */
    KindCounts counts() {
        return new KindCounts(timeouts.sum(), failures.sum(), firstFailure, violations.sum(), most.get(), reads.sum(),
                writes.sum());
    }

    /** The clients are shared by several contestants: {@link Kinds} closes them. */
    @Override
    public void close() {
    }

    /**
     * Counted by a kind contestant over everything it ran: waits that ran out, other failures (acquire or release
     * threw), holds that broke the kind's rule, the most holders at once, and the holds of readers (every other kind:
     * of all threads) and of the writer.
     */
    record KindCounts(long timeouts, long failures, String firstFailure, long violations, int mostAtOnce, long reads,
            long writes) {
    }
}
