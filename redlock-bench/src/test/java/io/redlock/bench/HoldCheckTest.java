package io.redlock.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import org.junit.jupiter.api.Test;

/** The kinds' correctness check counts every hold its rule excludes, and nothing else. */
class HoldCheckTest {

    private final LongAdder violations = new LongAdder();
    private final AtomicInteger most = new AtomicInteger();

    private HoldCheck check(Kind kind) {
        return new HoldCheck(new KindWindow(kind, "k:", 6, 2, 2), violations, most);
    }

    @Test
    void readersTogetherAreFineAWriterBesideThemIsNot() {
        HoldCheck check = check(Kind.READ_WRITE);
        check.enter(1);
        check.enter(2);
        check.enter(3);
        assertThat(violations.sum()).isZero();
        assertThat(most).hasValue(3);
        check.enter(0); // the writer, beside three readers
        assertThat(violations.sum()).isEqualTo(1);
        check.leave(1);
        check.leave(2);
        check.leave(3);
        check.enter(4); // a reader beside the writer
        assertThat(violations.sum()).isEqualTo(2);
        check.leave(4);
        check.leave(0);
        check.enter(0);
        assertThat(violations.sum()).as("the writer alone").isEqualTo(2);
    }

    @Test
    void moreHoldersThanPermitsIsAViolation() {
        HoldCheck check = check(Kind.PERMITS);
        check.enter(0);
        check.enter(1);
        assertThat(violations.sum()).isZero();
        check.enter(2);
        assertThat(violations.sum()).isEqualTo(1);
        check.leave(2);
        check.leave(1);
        check.enter(3);
        assertThat(violations.sum()).isEqualTo(1);
        assertThat(most).hasValue(3);
    }

    @Test
    void neighboursOfTheRingExcludeEachOtherOthersDoNot() {
        HoldCheck check = check(Kind.SEVERAL);
        check.enter(0); // slots 0, 1
        check.enter(2); // slots 2, 3
        check.enter(4); // slots 4, 5
        assertThat(violations.sum()).isZero();
        check.enter(5); // slots 5, 0: both held
        assertThat(violations.sum()).isEqualTo(1);
        check.leave(5);
        check.leave(0);
        check.enter(1); // slots 1, 2: 2 held
        assertThat(violations.sum()).isEqualTo(2);
    }

    @Test
    void aPlainLockHasOneHolder() {
        HoldCheck check = check(Kind.LOCK);
        check.enter(0);
        check.enter(1);
        assertThat(violations.sum()).isZero();
        check.enter(1);
        assertThat(violations.sum()).isEqualTo(1);
    }
}
