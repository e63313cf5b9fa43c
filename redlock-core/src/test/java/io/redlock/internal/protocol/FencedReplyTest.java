package io.redlock.internal.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class FencedReplyTest {

    private static long queued(long ticket, long millis) {
        return -((1L << 52) + ticket * (1L << 32) + millis);
    }

    @Test
    void aPositiveReplyIsAGrantCarryingTheCounter() {
        assertThat(FencedReply.isGrant(42L)).isTrue();
        assertThat(FencedReply.isQueued(42L)).isFalse();
        assertThat(FencedReply.ticket(42L)).isZero();
    }

    @Test
    void aPlainRefusalCarriesTheHoldersRemainingMillis() {
        assertThat(FencedReply.isGrant(-1500L)).isFalse();
        assertThat(FencedReply.isQueued(-1500L)).isFalse();
        assertThat(FencedReply.remainingMillis(-1500L)).isEqualTo(1500);
        assertThat(FencedReply.ticket(-1500L)).isZero();
        assertThat(FencedReply.remainingMillis(0L)).isZero();
        assertThat(FencedReply.isGrant(0L)).isFalse();
    }

    @Test
    void aQueuedRefusalCarriesTheTicketAndTheRemainingMillis() {
        long reply = queued(3, 1500);
        assertThat(FencedReply.isGrant(reply)).isFalse();
        assertThat(FencedReply.isQueued(reply)).isTrue();
        assertThat(FencedReply.ticket(reply)).isEqualTo(3);
        assertThat(FencedReply.remainingMillis(reply)).isEqualTo(1500);
        long last = queued((1L << 20) - 1, 0xFFFF_FFFFL); // the largest ticket and ms the script sends
        assertThat(FencedReply.ticket(last)).isEqualTo((1L << 20) - 1);
        assertThat(FencedReply.remainingMillis(last)).isEqualTo(0xFFFF_FFFFL);
    }

    @Test
    void aPermitsRefusalCarriesTheFreeSlotAndTheRemainingMillis() {
        long reply = -((1L << 51) + (5 + 1) * (1L << 32) + 1500);
        assertThat(FencedReply.isGrant(reply)).isFalse();
        assertThat(FencedReply.isQueued(reply)).isFalse();
        assertThat(FencedReply.ticket(reply)).isZero();
        assertThat(FencedReply.freeSlot(reply)).isEqualTo(5);
        assertThat(FencedReply.remainingMillis(reply)).isEqualTo(1500);
        long none = -((1L << 51) + 0xFFFF_FFFFL); // no free slot, the longest ms the script sends
        assertThat(FencedReply.freeSlot(none)).isEqualTo(-1);
        assertThat(FencedReply.remainingMillis(none)).isEqualTo(0xFFFF_FFFFL);
        assertThat(FencedReply.freeSlot(-1500L)).as("a plain refusal names no slot").isEqualTo(-1);
        assertThat(FencedReply.freeSlot(queued(3, 1500))).isEqualTo(-1);
        assertThat(FencedReply.freeSlot(7L)).isEqualTo(-1);
    }

    @Test
    void noReplyIsNeitherGrantNorQueued() {
        assertThat(FencedReply.isGrant(null)).isFalse();
        assertThat(FencedReply.isQueued(null)).isFalse();
        assertThat(FencedReply.ticket(null)).isZero();
        assertThat(FencedReply.remainingMillis(null)).isZero();
    }
}
