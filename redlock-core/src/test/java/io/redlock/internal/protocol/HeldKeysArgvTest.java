package io.redlock.internal.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Which request each kind of keys sends its acquire and commit scripts, and what that request is on the wire. */
class HeldKeysArgvTest {

    /** No fencing, with the clock floor: each flag and number is told apart from the others. */
    private static final ScriptSettings SETTINGS = new ScriptSettings(false, true, "60000", "701");
    private static final Keys KEYS = Keys.of("reports");

    @Test
    void aLockOfOneResourceSendsItsPlaceInTheQueueOrNone() {
        assertThat(KEYS.acquireScript()).isEqualTo(Scripts.ACQUIRE_FENCED);
        assertThat(KEYS.acquireArgs("v", 10_000, SETTINGS, "w", 7))
                .containsExactly("v", "10000", "1", "60000", "w", "7", "701");
        assertThat(KEYS.acquireInQueue()).containsExactly("reports", "reports:fence", "reports:waiters",
                "reports:waiters:until");
        assertThat(KEYS.acquireArgs("v", 10_000, SETTINGS)).containsExactly("v", "10000", "1", "60000");
        assertThat(KEYS.acquire()).as("no queue for a caller that will not wait, nor for the commit")
                .containsExactly("reports", "reports:fence");
        assertThat(KEYS.commitArgs("v", 42, SETTINGS)).containsExactly("v", "42", "1", "60000");
    }

    @Test
    void aLockOfSeveralResourcesAndAReaderSendTheAcquireOfNoQueue() {
        for (HeldKeys keys : List.of(new KeysOfAll(List.of(KEYS, Keys.of("audit"))), new ReaderKeys(KEYS))) {
            assertThat(keys.acquireArgs("v", 10_000, SETTINGS)).as("%s", keys)
                    .containsExactly("v", "10000", "0", "1", "60000");
        }
        assertThat(new KeysOfAll(List.of(KEYS)).commitArgs("v", 42, SETTINGS)).containsExactly("v", "42", "1", "60000");
        assertThat(new ReaderKeys(KEYS).commitArgs("v", 42, SETTINGS)).containsExactly("v", "42", "1", "60000", "0");
    }

    @Test
    void aPermitSendsThePermitsAndCommitsStrictly() {
        PermitKeys permit = PermitKeys.first(KEYS, 3, 1);
        assertThat(permit.acquireArgs("v.1", 10_000, SETTINGS)).containsExactly("v.1", "10000", "0", "1", "60000", "3");
        assertThat(permit.commitArgs("v.1", 42, SETTINGS)).containsExactly("v.1", "42", "1", "60000", "1");
    }

    @Test
    void everyKindNamesItsReleaseChannelsInTheOrderOfItsKeys() {
        assertThat(new KeysOfAll(List.of(KEYS, Keys.of("audit"))).releasedChannels())
                .containsExactly("reports:released", "audit:released");
        assertThat(new Scripts.Release("v", "r:v", false, true, new ReaderKeys(KEYS).releasedChannels()).argv())
                .containsExactly("v", "r:v", "0", "1", "reports:released");
    }
}
