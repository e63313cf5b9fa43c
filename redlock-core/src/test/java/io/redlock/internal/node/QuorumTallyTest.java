package io.redlock.internal.node;

import static io.redlock.internal.node.QuorumTally.Decision.LOST;
import static io.redlock.internal.node.QuorumTally.Decision.PENDING;
import static io.redlock.internal.node.QuorumTally.Decision.WON;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.redlock.RedlockConfig;
import org.junit.jupiter.api.Test;

class QuorumTallyTest {

    @Test
    void quorumIsHalfPlusOne() {
        assertThat(RedlockConfig.quorumOf(1)).isEqualTo(1);
        assertThat(RedlockConfig.quorumOf(2)).isEqualTo(2);
        assertThat(RedlockConfig.quorumOf(3)).isEqualTo(2);
        assertThat(RedlockConfig.quorumOf(4)).isEqualTo(3);
        assertThat(RedlockConfig.quorumOf(5)).isEqualTo(3);
        assertThat(RedlockConfig.quorumOf(7)).isEqualTo(4);
    }

    @Test
    void winsAsSoonAsAMajorityGrantedWithoutWaitingForTheRest() {
        QuorumTally tally = new QuorumTally(5);
        tally.grant();
        tally.grant();
        assertThat(tally.decision()).isEqualTo(PENDING);
        tally.grant();
        assertThat(tally.decision()).isEqualTo(WON);
        assertThat(tally.pending()).isEqualTo(2);
    }

    @Test
    void losesAsSoonAsAMajorityIsImpossible() {
        QuorumTally tally = new QuorumTally(5);
        tally.grant();
        tally.refuse();
        tally.fail();
        assertThat(tally.decision()).isEqualTo(PENDING); // 2 pending could still make 3
        tally.refuse();
        assertThat(tally.decision()).isEqualTo(LOST);
        assertThat(tally.pending()).isEqualTo(1);
    }

    @Test
    void aTimeoutCountsMissingRepliesAgainst() {
        QuorumTally tally = new QuorumTally(5);
        tally.grant();
        tally.grant();
        assertThat(tally.finalDecision()).isEqualTo(LOST);
        tally.grant();
        assertThat(tally.finalDecision()).isEqualTo(WON);
    }

    @Test
    void distinguishesFailuresFromRefusals() {
        QuorumTally busy = new QuorumTally(5);
        busy.refuse();
        busy.refuse();
        busy.refuse();
        assertThat(busy.decision()).isEqualTo(LOST);
        assertThat(busy.failuresPreventQuorum()).isFalse();

        QuorumTally down = new QuorumTally(5);
        down.fail();
        down.fail();
        assertThat(down.failuresPreventQuorum()).isFalse();
        down.fail();
        assertThat(down.failuresPreventQuorum()).isTrue();
        assertThat(down.decision()).isEqualTo(LOST);
    }

    @Test
    void singleNodeDecidesOnItsOneReply() {
        QuorumTally granted = new QuorumTally(1);
        granted.grant();
        assertThat(granted.decision()).isEqualTo(WON);
        QuorumTally refused = new QuorumTally(1);
        refused.refuse();
        assertThat(refused.decision()).isEqualTo(LOST);
    }

    @Test
    void evenNodeCountNeedsMoreThanHalf() {
        QuorumTally tally = new QuorumTally(4);
        tally.grant();
        tally.grant();
        tally.refuse();
        assertThat(tally.decision()).isEqualTo(PENDING);
        tally.refuse();
        assertThat(tally.decision()).isEqualTo(LOST);
    }

    @Test
    void rejectsZeroNodes() {
        assertThatThrownBy(() -> new QuorumTally(0)).isInstanceOf(IllegalArgumentException.class);
    }
}
