package io.redlock.testkit.history;

import static io.redlock.testkit.history.FakeClock.ms;
import static org.assertj.core.api.Assertions.assertThat;

import io.redlock.testkit.history.Checkers.HoldMode;
import java.util.List;
import org.junit.jupiter.api.Test;

class MutualExclusionTest {

    private final FakeClock clock = new FakeClock();
    private final History history = new History(clock);

    /** Acquires {@code lease} at {@code from} ms, granted at {@code from + 1} ms, valid until {@code validUntil} ms. */
    private Event acquire(String process, String lease, long token, long from, long validUntil) {
        History.Call call = history.invoke(process, Op.ACQUIRE, lease, token, null);
        clock.at(from + 1);
        return call.okValid(ms(validUntil));
    }

    private void release(String process, String lease, long token, long at) {
        clock.at(at);
        history.invoke(process, Op.RELEASE, lease, token, null);
        clock.at(at + 1);
    }

    @Test
    void leasesOneAfterAnotherPass() {
        clock.at(0);
        acquire("worker-1", "a", 1, 0, 10);
        release("worker-1", "a", 1, 5);
        clock.at(6);
        acquire("worker-2", "b", 2, 6, 16);
        clock.at(17);
        acquire("worker-3", "c", 3, 17, 27);

        for (HoldMode mode : HoldMode.values()) {
            CheckResult result = Checkers.mutualExclusion(history.events(), mode);
            assertThat(result.valid()).as(mode.name()).isTrue();
            assertThat(result.violations()).isEmpty();
        }
        assertThat(Checkers.mutualExclusion(history.events(), HoldMode.VALIDITY).summary())
                .isEqualTo("mutual exclusion (validity): 0 overlaps among 3 leases");
    }

    @Test
    void overlappingValidityWindowsAreAViolation() {
        clock.at(0);
        Event a = acquire("worker-1", "a", 1, 0, 10);
        clock.at(5);
        Event b = acquire("worker-2", "b", 2, 5, 15);

        CheckResult result = Checkers.mutualExclusion(history.events(), HoldMode.VALIDITY);

        assertThat(result.valid()).isFalse();
        assertThat(result.checker()).isEqualTo("mutual exclusion (validity)");
        assertThat(result.violations()).singleElement().satisfies(v -> {
            assertThat(v.events()).containsExactly(a, b);
            assertThat(v.description()).isEqualTo(
                    "lease a (worker-1, token 1) and lease b (worker-2, token 2) overlap by 4.000 ms");
        });
        assertThat(result.summary()).isEqualTo("mutual exclusion (validity): 1 overlaps among 2 leases");
    }

    @Test
    void anExtensionStretchesValidityIntoTheNextHolder() {
        clock.at(0);
        acquire("worker-1", "a", 1, 0, 10);
        clock.at(8);
        history.invoke("worker-1", Op.EXTEND, "a", 1, null).okValid(ms(30));
        clock.at(12);
        acquire("worker-2", "b", 2, 12, 22);

        assertThat(Checkers.mutualExclusion(history.events(), HoldMode.VALIDITY).violations()).hasSize(1);
    }

    @Test
    void aReleaseEndsValidityEarly() {
        clock.at(0);
        acquire("worker-1", "a", 1, 0, 100);
        release("worker-1", "a", 1, 4);
        clock.at(5);
        acquire("worker-2", "b", 2, 5, 105);

        assertThat(Checkers.mutualExclusion(history.events(), HoldMode.VALIDITY).valid()).isTrue();
    }

    @Test
    void criticalSectionCatchesAPausedHolderThatValidityModeAccepts() {
        clock.at(0);
        acquire("worker-1", "a", 1, 0, 11);                        // a is valid [1, 11]
        clock.at(2);
        history.invoke("worker-1", Op.WRITE, "a", 1, 1L);          // worker-1 starts writing, then pauses (GC)...
        clock.at(12);
        Event b = acquire("worker-2", "b", 2, 12, 23);             // ...a expired, b holds from 13
        clock.at(14);
        History.Call stale = history.invoke("worker-2", Op.WRITE, "b", 2, 1L);
        clock.at(15);
        stale.ok();
        clock.at(16);
        release("worker-1", "a", 1, 16);                           // worker-1 wakes up, believes it held a until 16
        release("worker-2", "b", 2, 18);

        CheckResult validity = Checkers.mutualExclusion(history.events(), HoldMode.VALIDITY);
        CheckResult criticalSection = Checkers.mutualExclusion(history.events(), HoldMode.CRITICAL_SECTION);

        assertThat(validity.valid()).isTrue();
        assertThat(criticalSection.valid()).isFalse();
        assertThat(criticalSection.checker()).isEqualTo("mutual exclusion (critical section)");
        assertThat(criticalSection.violations()).singleElement().satisfies(v -> {
            assertThat(v.events()).extracting(Event::lease).containsExactly("a", "b");
            assertThat(v.events().get(1)).isEqualTo(b);
            assertThat(v.description()).contains("lease a (worker-1, token 1)", "lease b (worker-2, token 2)",
                    "overlap by 3.000 ms");
        });
    }

    @Test
    void criticalSectionWithoutReleaseEndsAtTheLastUse() {
        clock.at(0);
        acquire("worker-1", "a", 1, 0, 5);
        clock.at(2);
        History.Call slowWrite = history.invoke("worker-1", Op.WRITE, "a", 1, 1L);
        clock.at(7);
        acquire("worker-2", "b", 2, 7, 20);                        // b holds from 8
        clock.at(9);
        slowWrite.ok();                                             // a used until 9, never released
        history.invoke("worker-1", Op.READ, "a", 1, null);         // pending: ignored
        clock.at(11);
        History.Call write = history.invoke("worker-2", Op.WRITE, "b", 2, 2L);
        clock.at(12);
        write.ok();                                                 // b used until 12, never released

        assertThat(Checkers.mutualExclusion(history.events(), HoldMode.VALIDITY).valid()).isTrue();
        assertThat(Checkers.mutualExclusion(history.events(), HoldMode.CRITICAL_SECTION).violations())
                .singleElement().extracting(Violation::description).asString().contains("overlap by 1.000 ms");
    }

    @Test
    void criticalSectionOfAnUnusedLeaseIsEmpty() {
        clock.at(0);
        acquire("worker-1", "a", 1, 0, 50);                        // acquired, never used nor released
        clock.at(10);
        acquire("worker-2", "b", 2, 10, 60);

        assertThat(Checkers.mutualExclusion(history.events(), HoldMode.CRITICAL_SECTION).valid()).isTrue();
        assertThat(Checkers.mutualExclusion(history.events(), HoldMode.VALIDITY).valid()).isFalse();
    }

    @Test
    void failedUnknownAndPendingAcquiresAreNotHolders() {
        clock.at(0);
        acquire("worker-1", "a", 1, 0, 100);
        history.invoke("worker-2", Op.ACQUIRE, "b", 2, null).fail("no quorum");
        clock.at(2);
        history.invoke("worker-3", Op.ACQUIRE, "c", 3, null).unknown("timed out");
        history.invoke("worker-4", Op.ACQUIRE, "d", 4, null);      // never completes
        clock.at(3);
        history.invoke("worker-2", Op.WRITE, "b", 2, 1L).ok();     // uses of a non-holder do not make it one

        for (HoldMode mode : HoldMode.values()) {
            CheckResult result = Checkers.mutualExclusion(history.events(), mode);
            assertThat(result.valid()).as(mode.name()).isTrue();
            assertThat(result.summary()).endsWith("0 overlaps among 1 leases");
        }
    }

    @Test
    void anUnknownOrFailedExtensionDoesNotProlongTheValidity() {
        clock.at(0);
        acquire("worker-1", "a", 1, 0, 10);
        clock.at(5);
        history.invoke("worker-1", Op.EXTEND, "a", 1, null).unknown("timed out: maybe extended");
        history.invoke("worker-1", Op.EXTEND, "a", 1, null).fail("no majority");
        clock.at(12);
        acquire("worker-2", "b", 2, 12, 22);

        assertThat(Checkers.mutualExclusion(history.events(), HoldMode.VALIDITY).valid()).isTrue();

        clock.at(13);
        history.invoke("worker-1", Op.EXTEND, "a", 1, null).okValid(ms(30)); // a known extension does
        assertThat(Checkers.mutualExclusion(history.events(), HoldMode.VALIDITY).valid()).isFalse();
    }

    @Test
    void aReleaseWhoseOutcomeIsUnknownStillEndsTheHold() {
        clock.at(0);
        acquire("worker-1", "a", 1, 0, 100);
        clock.at(5);
        history.invoke("worker-1", Op.RELEASE, "a", 1, null).unknown("timed out: maybe released");
        clock.at(20);
        acquire("worker-2", "b", 2, 20, 120);

        for (HoldMode mode : HoldMode.values()) {
            assertThat(Checkers.mutualExclusion(history.events(), mode).valid()).as(mode.name()).isTrue();
        }
    }

    @Test
    void eachOverlappingPairIsReportedOnce() {
        clock.at(0);
        acquire("worker-1", "a", 1, 0, 100);
        clock.at(10);
        acquire("worker-2", "b", 2, 10, 100);
        clock.at(20);
        acquire("worker-3", "c", 3, 20, 100);
        clock.at(200);
        acquire("worker-4", "d", 4, 200, 300);

        List<Violation> violations = Checkers.mutualExclusion(history.events(), HoldMode.VALIDITY).violations();

        assertThat(violations).extracting(v -> v.events().get(0).lease() + v.events().get(1).lease())
                .containsExactlyInAnyOrder("ab", "ac", "bc");
    }

    @Test
    void touchingIntervalsDoNotOverlap() {
        clock.at(0);
        acquire("worker-1", "a", 1, 0, 10);
        clock.at(9);
        acquire("worker-2", "b", 2, 9, 20);                        // starts at 10, exactly when a ends

        assertThat(Checkers.mutualExclusion(history.events(), HoldMode.VALIDITY).valid()).isTrue();
    }
}
