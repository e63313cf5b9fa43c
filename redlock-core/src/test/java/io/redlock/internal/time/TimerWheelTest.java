package io.redlock.internal.time;

import static org.assertj.core.api.Assertions.assertThat;

import io.redlock.FakeTicker;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The watchdogs' timer wheel, on a fake ticker and a scheduler moved by hand. */
class TimerWheelTest {

    private static final long TICK = TimerWheel.TICK_NANOS;

    private final FakeTicker ticker = new FakeTicker();
    private final ManualScheduler scheduler = new ManualScheduler(ticker);
    private final TimerWheel wheel = new TimerWheel(scheduler, ticker);

    /** The fake ticker's reading in ticks, from the wheel's zero. */
    private long sinceTickStart() {
        return Math.floorMod(ticker.read(), TICK);
    }

    @Test
    void timersDueInOneTickShareOneScheduledTask() {
        ticker.advance(Duration.ofNanos(TICK / 4)); // a quarter into a tick
        AtomicInteger ran = new AtomicInteger();
        for (int i = 0; i < 1_000; i++) {
            wheel.notBefore(ran::incrementAndGet, 5 * TICK + i); // all due in the same tick
        }
        assertThat(scheduler.pending()).hasSize(1);
        assertThat(wheel.pendingTicks()).isEqualTo(1);
        scheduler.advance(Duration.ofNanos(6 * TICK));
        assertThat(ran).hasValue(1_000);
        assertThat(wheel.pendingTicks()).isZero();
    }

    @Test
    void notBeforeIsNeverEarlyAndAtMostOneTickLate() {
        ticker.advance(Duration.ofNanos(TICK / 3));
        long start = ticker.read();
        List<Long> ranAt = new ArrayList<>();
        wheel.notBefore(() -> ranAt.add(ticker.read()), 3 * TICK + 1);
        scheduler.advance(Duration.ofNanos(10 * TICK));
        assertThat(ranAt).singleElement().satisfies(at ->
                assertThat(at - start).isGreaterThanOrEqualTo(3 * TICK + 1).isLessThan(4 * TICK + 1));
    }

    @Test
    void notAfterIsNeverLateAndAtMostOneTickEarly() {
        ticker.advance(Duration.ofNanos(TICK / 3));
        long start = ticker.read();
        List<Long> ranAt = new ArrayList<>();
        wheel.notAfter(() -> ranAt.add(ticker.read()), 3 * TICK + 1);
        scheduler.advance(Duration.ofNanos(10 * TICK));
        assertThat(ranAt).singleElement().satisfies(at ->
                assertThat(at - start).isLessThanOrEqualTo(3 * TICK + 1).isGreaterThan(2 * TICK + 1));
    }

    @Test
    void aTimerDueWithinOneTickIsScheduledExactlyOnItsOwn() {
        ticker.advance(Duration.ofNanos(TICK / 2));
        long start = ticker.read();
        List<Long> ranAt = new ArrayList<>();
        wheel.notAfter(() -> ranAt.add(ticker.read()), TICK / 3);
        assertThat(wheel.pendingTicks()).isZero();
        assertThat(scheduler.pending()).containsExactly(Duration.ofNanos(TICK / 3));
        scheduler.advance(Duration.ofNanos(TICK));
        assertThat(ranAt).containsExactly(start + TICK / 3);
    }

    @Test
    void aCancelledTimerDoesNotRunAndLetsGoOfItsTask() {
        AtomicInteger ran = new AtomicInteger();
        TimerWheel.Timer inTick = wheel.notBefore(ran::incrementAndGet, 5 * TICK);
        TimerWheel.Timer exact = wheel.notBefore(ran::incrementAndGet, TICK / 2);
        TimerWheel.Timer kept = wheel.notBefore(ran::incrementAndGet, 5 * TICK);
        inTick.cancel();
        exact.cancel();
        scheduler.advance(Duration.ofNanos(10 * TICK));
        assertThat(ran).hasValue(1);
        kept.cancel(); // after it ran: no effect
        assertThat(ran).hasValue(1);
    }

    @Test
    void aTickWhoseTimersWereMostlyCancelledStillRunsTheRest() {
        AtomicInteger ran = new AtomicInteger();
        List<TimerWheel.Timer> timers = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            timers.add(wheel.notBefore(ran::incrementAndGet, 5 * TICK));
        }
        for (int i = 0; i < 150; i++) {
            timers.get(i).cancel();
        }
        scheduler.advance(Duration.ofNanos(10 * TICK));
        assertThat(ran).hasValue(50);
    }

    @Test
    void aTimerAddedForATickWhileItRunsRunsAtOnce() {
        AtomicInteger ran = new AtomicInteger();
        wheel.notAfter(() -> wheel.notAfter(ran::incrementAndGet, TICK), 2 * TICK - sinceTickStart());
        scheduler.advance(Duration.ofNanos(2 * TICK));
        scheduler.advance(Duration.ofNanos(2 * TICK));
        assertThat(ran).hasValue(1);
    }

    @Test
    void aFailingTimerDoesNotStopTheOthersOfItsTick() {
        AtomicInteger ran = new AtomicInteger();
        wheel.notBefore(() -> {
            throw new IllegalStateException("boom");
        }, 5 * TICK);
        wheel.notBefore(ran::incrementAndGet, 5 * TICK);
        scheduler.advance(Duration.ofNanos(10 * TICK));
        assertThat(ran).hasValue(1);
    }
}
