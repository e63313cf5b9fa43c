package io.redlock.testkit.history;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class NoLostIncrementsTest {

    private final FakeClock clock = new FakeClock();
    private final History history = new History(clock);

    private History.Call write(long value) {
        return history.invoke("worker-1", Op.WRITE, "a", 1, value);
    }

    @Test
    void everyAcknowledgedIncrementCountedPasses() {
        write(1).ok();
        write(2).ok();
        write(3).fail("stale token");                               // definitely not applied
        history.invoke("worker-1", Op.READ, "a", 1, null).okRead(2L);

        CheckResult result = Checkers.noLostIncrements(history.events(), 2);

        assertThat(result.valid()).isTrue();
        assertThat(result.checker()).isEqualTo("no lost increments");
        assertThat(result.summary()).isEqualTo("no lost increments: final counter 2, acknowledged 2, maybe applied 0");
    }

    @Test
    void lostAcknowledgedIncrementsAreAViolation() {
        for (long i = 1; i <= 5; i++) {
            write(i).ok();
        }

        CheckResult result = Checkers.noLostIncrements(history.events(), 2);

        assertThat(result.valid()).isFalse();
        assertThat(result.violations()).singleElement().extracting(Violation::description).isEqualTo(
                "lost 3 acknowledged increments: final counter 2, acknowledged 5, maybe applied 0");
    }

    @Test
    void unknownWritesWidenTheAllowedRange() {
        write(1).ok();
        write(2).unknown("timed out");
        write(3).unknown("timed out");

        assertThat(Checkers.noLostIncrements(history.events(), 1).valid()).isTrue();
        assertThat(Checkers.noLostIncrements(history.events(), 2).valid()).isTrue();
        assertThat(Checkers.noLostIncrements(history.events(), 3).valid()).isTrue();
        assertThat(Checkers.noLostIncrements(history.events(), 0).valid()).isFalse();
    }

    @Test
    void aCounterAboveEveryPossibleWriteIsAViolation() {
        write(1).ok();
        write(2).unknown("timed out");

        CheckResult result = Checkers.noLostIncrements(history.events(), 3);

        assertThat(result.valid()).isFalse();
        assertThat(result.violations()).singleElement().extracting(Violation::description).isEqualTo(
                "counter is above every write that may have been applied: final counter 3, acknowledged 1, "
                        + "maybe applied 1");
    }

    @Test
    void pendingWritesMayHaveBeenApplied() {
        write(1).ok();
        write(2);                                                   // never completes

        assertThat(Checkers.noLostIncrements(history.events(), 2).valid()).isTrue();
        assertThat(Checkers.noLostIncrements(history.events(), 3).valid()).isFalse();
    }
}
