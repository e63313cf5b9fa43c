package io.redlock.testkit.history;

import static io.redlock.testkit.history.FakeClock.ms;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class CheckersTest {

    private final FakeClock clock = new FakeClock();
    private final History history = new History(clock);

    /** One worker's turn: acquire, one fenced increment, release, all within the lease's validity. */
    private void turn(String process, String lease, long token, long from, long counter) {
        clock.at(from);
        History.Call acquire = history.invoke(process, Op.ACQUIRE, lease, token, null);
        clock.at(from + 1);
        acquire.okValid(ms(from + 10));
        History.Call write = history.invoke(process, Op.WRITE, lease, token, counter);
        clock.at(from + 2);
        write.ok();
        History.Call release = history.invoke(process, Op.RELEASE, lease, token, null);
        clock.at(from + 3);
        release.ok();
    }

    @Test
    void allRunsTheThreeCheckersInOrderAndPassesACleanRun() {
        for (int i = 0; i < 10; i++) {
            turn("worker-" + (i % 3), "lease-" + i, i, i * 5L, i + 1);
        }

        List<CheckResult> results = Checkers.all(history.events(), 10);

        assertThat(results).extracting(CheckResult::checker)
                .containsExactly("mutual exclusion (validity)", "token order", "no lost increments");
        assertThat(results).allSatisfy(r -> assertThat(r.valid()).as(r.summary()).isTrue());
        assertThat(results.get(0).summary()).isEqualTo("mutual exclusion (validity): 0 overlaps among 10 leases");
    }

    @Test
    void allReportsEachCheckersViolations() {
        clock.at(0);
        History.Call acquireA = history.invoke("worker-1", Op.ACQUIRE, "a", 2, null);
        clock.at(1);
        acquireA.okValid(ms(10));
        History.Call acquireB = history.invoke("worker-2", Op.ACQUIRE, "b", 1, null);
        clock.at(2);
        acquireB.okValid(ms(11));                                   // overlaps a
        history.invoke("worker-1", Op.WRITE, "a", 2, 1L).ok();
        clock.at(3);
        history.invoke("worker-2", Op.WRITE, "b", 1, 2L).ok();     // token went down

        List<CheckResult> results = Checkers.all(history.events(), 1); // one acknowledged increment lost

        assertThat(results).noneMatch(CheckResult::valid);
        assertThat(results).allSatisfy(r -> assertThat(r.violations()).isNotEmpty()
                .allSatisfy(v -> assertThat(v.checker()).isEqualTo(r.checker())));
    }
}
