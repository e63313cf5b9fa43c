package io.redlock.testkit.history;

import static io.redlock.testkit.history.FakeClock.ms;
import static org.assertj.core.api.Assertions.assertThat;

import io.redlock.testkit.history.Checkers.HoldMode;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

/** Holders of two kinds: readers together pass, a writer beside anyone fails, too many shared holders fail. */
class HoldersAtOnceTest {

    private static final Predicate<Event> READERS = e -> e.process().startsWith("reader");

    private final FakeClock clock = new FakeClock();
    private final History history = new History(clock);

    /** {@code lease} granted at {@code from + 1} ms, valid until {@code validUntil} ms. */
    private Event acquire(String process, String lease, long from, long validUntil) {
        clock.at(from);
        History.Call call = history.invoke(process, Op.ACQUIRE, lease, 1, null);
        clock.at(from + 1);
        return call.okValid(ms(validUntil));
    }

    @Test
    void readersTogetherAreFineAndTheMostAtOnceIsReported() {
        acquire("reader-1", "r1", 0, 10);
        acquire("reader-2", "r2", 2, 12);
        acquire("writer-1", "w1", 20, 30);

        CheckResult result = Checkers.holdersAtOnce(history.events(), HoldMode.VALIDITY, READERS, Integer.MAX_VALUE);

        assertThat(result.valid()).as(result.summary()).isTrue();
        assertThat(result.summary()).endsWith("at most 2 shared at once");
    }

    @Test
    void aWriterBesideAReaderIsAViolation() {
        Event reader = acquire("reader-1", "r1", 0, 10);
        Event writer = acquire("writer-1", "w1", 5, 15);

        CheckResult result = Checkers.holdersAtOnce(history.events(), HoldMode.VALIDITY, READERS, Integer.MAX_VALUE);

        assertThat(result.valid()).isFalse();
        assertThat(result.violations()).singleElement().satisfies(v -> assertThat(v.events())
                .containsExactly(reader, writer));
    }

    @Test
    void moreSharedHoldersThanAllowedAtOnceIsAViolation() {
        acquire("reader-1", "p1", 0, 10);
        acquire("reader-2", "p2", 2, 12);
        Event third = acquire("reader-3", "p3", 4, 14);

        CheckResult two = Checkers.holdersAtOnce(history.events(), HoldMode.VALIDITY, READERS, 2);

        assertThat(two.valid()).isFalse();
        assertThat(two.violations()).singleElement().satisfies(v -> {
            assertThat(v.description()).startsWith("3 shared holders at once (at most 2)");
            assertThat(v.events()).contains(third);
        });
        assertThat(Checkers.holdersAtOnce(history.events(), HoldMode.VALIDITY, READERS, 3).valid()).isTrue();
    }

    @Test
    void withNothingSharedItIsMutualExclusion() {
        acquire("worker-1", "a", 0, 10);
        acquire("worker-2", "b", 5, 15);

        CheckResult holders = Checkers.holdersAtOnce(history.events(), HoldMode.VALIDITY, e -> false, 1);
        CheckResult mutex = Checkers.mutualExclusion(history.events(), HoldMode.VALIDITY);

        assertThat(holders.violations()).isEqualTo(mutex.violations());
        assertThat(holders.summary()).isEqualTo(mutex.summary());
    }
}
