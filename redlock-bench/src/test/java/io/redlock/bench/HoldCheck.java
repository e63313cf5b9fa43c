package io.redlock.bench;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.LongAdder;

/**
 * The correctness check of one window of a kind of lock, in the client: a thread marks itself inside when its
 * acquisition returned and out before it releases, so a lock that works never shows two marks that exclude each
 * other. Counted: a plain lock or several resources held by two threads at once (any resource), a writer beside a
 * reader or another writer, more permit holders than permits. Each check increments first and reads after, so of two
 * threads that overlap at least one sees the other. Also the most threads inside at once, which shows the holders did
 * overlap where the kind allows it (readers together, {@code permits} permits, the ring's non-neighbours). Thread-safe.
 */
final class HoldCheck {

    private final KindWindow window;
    private final AtomicIntegerArray holders;
    /** Readers inside, or permit holders. */
    private final AtomicInteger sharing = new AtomicInteger();
    private final AtomicInteger writers = new AtomicInteger();
    private final AtomicInteger inside = new AtomicInteger();
    private final LongAdder violations;
    private final AtomicInteger most;

    /** Counts into {@code violations} and raises {@code most}, both shared by the windows of one contestant. */
    HoldCheck(KindWindow window, LongAdder violations, AtomicInteger most) {
        this.window = window;
        this.holders = new AtomicIntegerArray(window.threads());
        this.violations = violations;
        this.most = most;
    }

    /** Thread {@code slot} holds what it asked for. */
    void enter(int slot) {
        most.accumulateAndGet(inside.incrementAndGet(), Math::max);
        boolean violated = switch (window.kind()) {
            case LOCK -> holders.incrementAndGet(slot) > 1;
            case SEVERAL -> {
                boolean twice = false;
                for (int held : window.ring(slot)) {
                    twice |= holders.incrementAndGet(held) > 1;
                }
                yield twice;
            }
            case READ_WRITE -> {
                if (window.writer(slot)) {
                    boolean anotherWriter = writers.incrementAndGet() > 1;
                    yield anotherWriter || sharing.get() > 0;
                }
                sharing.incrementAndGet();
                yield writers.get() > 0;
            }
            case PERMITS -> sharing.incrementAndGet() > window.permits();
        };
        if (violated) {
            violations.increment();
        }
    }

    /** Thread {@code slot} is about to release. */
    void leave(int slot) {
        switch (window.kind()) {
            case LOCK -> holders.decrementAndGet(slot);
            case SEVERAL -> {
                for (int held : window.ring(slot)) {
                    holders.decrementAndGet(held);
                }
            }
            case READ_WRITE -> (window.writer(slot) ? writers : sharing).decrementAndGet();
            case PERMITS -> sharing.decrementAndGet();
        }
        inside.decrementAndGet();
    }
}
