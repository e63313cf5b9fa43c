package io.redlock.testkit.history;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class TokenOrderTest {

    private final FakeClock clock = new FakeClock();
    private final History history = new History(clock);

    /** An accepted write invoked at {@code from} ms and completed at {@code to} ms. */
    private Event write(String process, String lease, long token, long from, long to) {
        clock.at(from);
        History.Call call = history.invoke(process, Op.WRITE, lease, token, 1L);
        clock.at(to);
        return call.ok();
    }

    @Test
    void increasingTokensPass() {
        write("worker-1", "a", 1, 0, 1);
        write("worker-1", "a", 1, 2, 3);
        write("worker-2", "b", 2, 4, 5);
        write("worker-3", "c", 5, 6, 7);

        CheckResult result = Checkers.tokenOrder(history.events());

        assertThat(result.valid()).isTrue();
        assertThat(result.checker()).isEqualTo("token order");
        assertThat(result.summary()).isEqualTo("token order: 0 violations among 4 fenced writes");
    }

    @Test
    void aTokenGoingDownInRealTimeOrderIsAViolation() {
        Event high = write("worker-2", "b", 5, 0, 1);
        Event low = write("worker-1", "a", 3, 2, 3);

        CheckResult result = Checkers.tokenOrder(history.events());

        assertThat(result.valid()).isFalse();
        assertThat(result.violations()).singleElement().satisfies(v -> {
            assertThat(v.events()).containsExactly(high, low);
            assertThat(v.description()).startsWith("token went down").contains("token 3", "token 5");
        });
    }

    @Test
    void theViolationNamesTheWriteThatSetTheMaximum() {
        write("worker-1", "a", 2, 0, 1);
        Event max = write("worker-2", "b", 7, 2, 3);
        Event four = write("worker-3", "c", 4, 4, 5);
        Event three = write("worker-4", "d", 3, 6, 7);

        CheckResult result = Checkers.tokenOrder(history.events());

        assertThat(result.violations()).extracting(Violation::events)
                .containsExactly(List.of(max, four), List.of(max, three));
    }

    @Test
    void concurrentWritesWithCrossingTokensAreNotAViolation() {
        clock.at(0);
        History.Call high = history.invoke("worker-2", Op.WRITE, "b", 5, 1L);
        clock.at(2);
        History.Call low = history.invoke("worker-1", Op.WRITE, "a", 3, 1L);
        clock.at(3);
        low.ok();                                                   // low completes first, but started during high
        clock.at(4);
        high.ok();
        write("worker-1", "a", 3, 4, 5);                           // invoked at 4: high completed at 4, not before

        assertThat(Checkers.tokenOrder(history.events()).valid()).isTrue();
    }

    @Test
    void theSameTokenFromTwoLeasesIsAViolation() {
        Event first = write("worker-1", "a", 4, 0, 1);
        write("worker-1", "a", 4, 2, 3);                           // same lease again: fine
        Event other = write("worker-2", "b", 4, 4, 5);

        CheckResult result = Checkers.tokenOrder(history.events());

        assertThat(result.valid()).isFalse();
        assertThat(result.violations()).singleElement().satisfies(v -> {
            assertThat(v.events()).containsExactly(first, other);
            assertThat(v.description()).startsWith("token accepted from two leases")
                    .contains("token 4", "lease a (worker-1", "lease b (worker-2");
        });
    }

    @Test
    void rejectedUnknownAndUnfencedWritesImposeNoOrder() {
        write("worker-2", "b", 9, 0, 1);
        clock.at(2);
        history.invoke("worker-1", Op.WRITE, "a", 3, 1L).fail("stale token");
        clock.at(3);
        history.invoke("worker-3", Op.WRITE, "c", 1, 1L).unknown("timed out");
        history.invoke("worker-4", Op.WRITE, "d", 2, 1L);          // pending
        write("worker-5", null, -1, 4, 5);                          // no token
        write("worker-6", "b", 9, 6, 7);

        CheckResult result = Checkers.tokenOrder(history.events());

        assertThat(result.valid()).isTrue();
        assertThat(result.summary()).isEqualTo("token order: 0 violations among 2 fenced writes");
    }
}
