package io.redlock.internal;

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
    void noReplyIsNeitherGrantNorQueued() {
        assertThat(FencedReply.isGrant(null)).isFalse();
        assertThat(FencedReply.isQueued(null)).isFalse();
        assertThat(FencedReply.ticket(null)).isZero();
        assertThat(FencedReply.remainingMillis(null)).isZero();
    }
}
