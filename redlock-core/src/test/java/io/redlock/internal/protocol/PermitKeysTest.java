package io.redlock.internal.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class PermitKeysTest {

    private static final Keys KEYS = Keys.of("reports");

    @Test
    void aRoundLostToACommitClashIsSentAgainAtOnceOnTheSameSlotABoundedNumberOfTimes() {
        HeldKeys keys = PermitKeys.first(KEYS, 3, 1);
        for (int clash = 1; clash <= PermitKeys.COMMIT_CLASHES; clash++) {
            HeldKeys.Next next = keys.afterCommitClash();
            assertThat(next.now()).as("clash %s: at once", clash).isTrue();
            assertThat(((PermitKeys) next.keys()).slot()).isEqualTo(1);
            keys = next.keys();
        }
        HeldKeys.Next next = keys.afterCommitClash();
        assertThat(next.now()).as("after %s clashes: wait, as any lost round", PermitKeys.COMMIT_CLASHES).isFalse();
        assertThat(next.keys()).as("the next sweep starts afresh").isEqualTo(PermitKeys.first(KEYS, 3, 1));
    }

    @Test
    void otherKindsWaitAfterACommitClash() {
        HeldKeys.Next next = KEYS.afterCommitClash();
        assertThat(next.now()).isFalse();
        assertThat(next.keys()).isSameAs(KEYS);
    }
}
