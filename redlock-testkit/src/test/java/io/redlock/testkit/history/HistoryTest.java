package io.redlock.testkit.history;

import static io.redlock.testkit.history.FakeClock.ms;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class HistoryTest {

    private final FakeClock clock = new FakeClock();
    private final History history = new History(clock);

    @Test
    void recordsInvocationAndCompletionWithTheClock() {
        History.Call acquire = history.invoke("worker-1", Op.ACQUIRE, "lease-a", 7, null);
        clock.at(3);
        Event done = acquire.okValid(ms(13));

        assertThat(done).isEqualTo(new Event(0, "worker-1", Op.ACQUIRE, "lease-a", 7, 0, ms(3), Outcome.OK, ms(13),
                null, null));
        assertThat(history.events()).containsExactly(done);
    }

    @Test
    void anAcquireInvokedBeforeItsLeaseExistedCompletesWithTheLeaseItGot() {
        History.Call acquire = history.invoke("worker-1", Op.ACQUIRE, null, -1, null);
        clock.at(4);
        Event done = acquire.okAcquired("lease-b", 9, ms(20));

        assertThat(done).isEqualTo(new Event(0, "worker-1", Op.ACQUIRE, "lease-b", 9, 0, ms(4), Outcome.OK, ms(20),
                null, null));
        assertThatThrownBy(() -> history.invoke("w", Op.WRITE, "a", 1, 1L).okAcquired("x", 1, ms(1)))
                .isInstanceOf(IllegalStateException.class);
    }

    @Test
    void completionsCarryTheirValuesAndNotes() {
        History.Call write = history.invoke("w", Op.WRITE, "a", 1, 5L);
        History.Call read = history.invoke("w", Op.READ, "a", 1, null);
        History.Call release = history.invoke("w", Op.RELEASE, "a", 1, null);
        History.Call extend = history.invoke("w", Op.EXTEND, "a", 1, null);
        clock.at(1);

        assertThat(write.ok().value()).isEqualTo(5L);
        assertThat(read.okRead(4L).value()).isEqualTo(4L);
        Event failed = release.fail("not the owner");
        assertThat(failed.outcome()).isEqualTo(Outcome.FAIL);
        assertThat(failed.note()).isEqualTo("not the owner");
        Event timedOut = extend.unknown("timed out");
        assertThat(timedOut.outcome()).isEqualTo(Outcome.UNKNOWN);
        assertThat(timedOut.completedAt()).isEqualTo(ms(1));
        assertThat(timedOut.validUntil()).isEqualTo(-1);
        assertThat(timedOut.pending()).isFalse();
    }

    @Test
    void pendingCallsAppearAsUnknownThatNeverCompleted() {
        History.Call done = history.invoke("worker-1", Op.WRITE, "a", 1, 1L);
        clock.at(1);
        History.Call pending = history.invoke("worker-2", Op.WRITE, "b", 2, 2L);
        done.ok();

        List<Event> events = history.events();
        assertThat(events).extracting(Event::id).containsExactly(0L, 1L);
        Event stuck = events.get(1);
        assertThat(stuck.outcome()).isEqualTo(Outcome.UNKNOWN);
        assertThat(stuck.completedAt()).isEqualTo(Long.MAX_VALUE);
        assertThat(stuck.pending()).isTrue();
        assertThat(stuck.invokedAt()).isEqualTo(ms(1));
        assertThat(pending.event()).isEqualTo(stuck);

        clock.at(2);
        pending.ok();
        assertThat(history.events().get(1).completedAt()).isEqualTo(ms(2));
        assertThat(stuck.pending()).as("an earlier snapshot does not change").isTrue();
    }

    @Test
    void exactlyOneCompletionWinsAndLaterOnesAreIgnored() {
        History.Call call = history.invoke("worker-1", Op.WRITE, "a", 1, 1L);
        clock.at(1);
        Event first = call.unknown("timed out");
        clock.at(2);

        assertThat(call.ok()).isSameAs(first);
        assertThat(call.fail("late")).isSameAs(first);
        assertThat(history.events()).containsExactly(first);
    }

    @Test
    void concurrentCompletionsOfOneCallAgreeOnOneWinner() throws Exception {
        History.Call call = history.invoke("worker-1", Op.WRITE, "a", 1, 1L);
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            CountDownLatch go = new CountDownLatch(1);
            List<Future<Event>> results = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                String why = "thread-" + i;
                results.add(pool.submit(() -> {
                    go.await();
                    return call.fail(why);
                }));
            }
            go.countDown();
            Event winner = results.get(0).get(10, TimeUnit.SECONDS);
            for (Future<Event> result : results) {
                assertThat(result.get(10, TimeUnit.SECONDS)).isSameAs(winner);
            }
            assertThat(history.events()).containsExactly(winner);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void completionsThatDoNotFitTheOperationAreRejected() {
        History.Call write = history.invoke("worker-1", Op.WRITE, "a", 1, 1L);

        assertThatThrownBy(() -> write.okValid(ms(10))).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> write.okRead(1L)).isInstanceOf(IllegalStateException.class);
        assertThat(write.event().pending()).isTrue();
    }

    @Test
    void eventsIsAnImmutableSnapshot() {
        history.invoke("worker-1", Op.ACQUIRE, "a", 1, null);
        List<Event> events = history.events();
        history.invoke("worker-1", Op.RELEASE, "a", 1, null);

        assertThat(events).hasSize(1);
        assertThatThrownBy(() -> events.add(events.get(0))).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void severalThreadsRecordingConcurrentlyLoseNothing() throws Exception {
        AtomicLong ticks = new AtomicLong();
        History shared = new History(ticks::incrementAndGet);
        int threads = 8;
        int perThread = 2_000;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            CountDownLatch go = new CountDownLatch(1);
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                String process = "worker-" + t;
                done.add(pool.submit(() -> {
                    go.await();
                    for (int i = 0; i < perThread; i++) {
                        History.Call call = shared.invoke(process, Op.WRITE, process, i, (long) i);
                        if (i % 2 == 0) {
                            call.ok();
                        } else {
                            call.unknown("timed out");
                        }
                        if (i % 100 == 0) {
                            assertThat(shared.events()).isNotEmpty();
                        }
                    }
                    return null;
                }));
            }
            go.countDown();
            for (Future<?> f : done) {
                f.get(30, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }

        List<Event> events = shared.events();
        assertThat(events).hasSize(threads * perThread);
        for (int i = 0; i < events.size(); i++) {
            Event e = events.get(i);
            assertThat(e.id()).isEqualTo(i);
            assertThat(e.pending()).isFalse();
            assertThat(e.completedAt()).isGreaterThan(e.invokedAt());
            if (i > 0) {
                assertThat(e.invokedAt()).isGreaterThan(events.get(i - 1).invokedAt());
            }
        }
        for (int t = 0; t < threads; t++) {
            String process = "worker-" + t;
            assertThat(events).filteredOn(e -> e.process().equals(process))
                    .extracting(Event::token)
                    .isSorted()
                    .hasSize(perThread);
        }
        assertThat(events).filteredOn(e -> e.outcome() == Outcome.OK).hasSize(threads * perThread / 2);
    }
}
