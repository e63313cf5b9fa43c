package io.redlock.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.redlock.cli.NemesisFault.Kind;
import io.redlock.testkit.history.History;
import io.redlock.testkit.history.Op;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * An overlap of validity windows is excused only by a fault the guarantees do not claim to survive that began between
 * the first attempt and the last grant; token order and lost increments are never excused.
 */
class NemesisVerdictTest {

    private final AtomicLong now = new AtomicLong();
    private final History history = new History(now::get);

    /** Lease a granted at 10 valid until 100, lease b asked at 20 and granted at 30: they overlap from 30 to 100. */
    private void twoHoldersAtOnce() {
        History.Call a = history.invoke("a", Op.ACQUIRE, null, -1, null);
        now.set(10);
        a.okAcquired("lease-a", 1, 100);
        now.set(20);
        History.Call b = history.invoke("b", Op.ACQUIRE, null, -1, null);
        now.set(30);
        b.okAcquired("lease-b", 2, 200);
    }

    private NemesisVerdict verdict(List<NemesisFault> faults) {
        return new NemesisVerdict("r", history, e -> false, 0, null, faults);
    }

    @Test
    void anOverlapWithoutAnUnsafeFaultIsAViolation() {
        twoHoldersAtOnce();
        NemesisVerdict verdict = verdict(List.of(new NemesisFault(Kind.NODE_PAUSED, "node-0", 15, 25)));
        assertThat(verdict.unexcused).hasSize(1);
        assertThat(verdict.held()).isFalse();
    }

    @Test
    void anUnsafeFaultBetweenTheAttemptsAndTheLastGrantExcusesTheOverlap() {
        twoHoldersAtOnce();
        NemesisVerdict verdict = verdict(List.of(new NemesisFault(Kind.CLOCK_JUMP, "node-1", 15, 500)));
        assertThat(verdict.unexcused).isEmpty();
        assertThat(verdict.excused).hasSize(1);
        assertThat(verdict.held()).isTrue();
    }

    @Test
    void anUnsafeFaultAfterTheLastGrantExcusesNothing() {
        twoHoldersAtOnce();
        NemesisVerdict verdict = verdict(List.of(new NemesisFault(Kind.NODE_RESTARTED_AT_ONCE, "node-0", 50, 60)));
        assertThat(verdict.unexcused).hasSize(1);
    }

    @Test
    void aLostFencedIncrementIsAViolationWhateverTheFaults() {
        history.invoke("a", Op.WRITE, "lease-a", 1, 1L).ok();
        history.invoke("b", Op.WRITE, "lease-b", 2, 2L).ok();
        NemesisVerdict verdict = new NemesisVerdict("r", history, e -> false, 0, 1L,
                List.of(new NemesisFault(Kind.NODE_RESTARTED_AT_ONCE, "node-0", 0, 60)));
        assertThat(verdict.held()).isFalse();
    }
}
