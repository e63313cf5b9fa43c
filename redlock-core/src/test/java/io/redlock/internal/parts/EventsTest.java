package io.redlock.internal.parts;

import static org.assertj.core.api.Assertions.assertThat;

import io.redlock.Lease;
import io.redlock.LossReason;
import io.redlock.NodeFailure;
import io.redlock.RedlockObserver;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class EventsTest {

    private static class Failures implements RedlockObserver {
        @Override
        public void nodeFailed(NodeFailure failure) {
        }
    }

    private static final class Losses extends Failures {
        final List<LossReason> heard = new ArrayList<>();

        @Override
        public void leaseLost(Lease lease, LossReason reason) {
            heard.add(reason);
        }
    }

    @Test
    void anObserverThatDoesNotOverrideLeaseLostLeavesLeasesUnwatched() {
        Events events = new Events();
        events.add(new Failures());
        events.add(new RedlockObserver() {
        });
        assertThat(events.listening()).isFalse();
    }

    @Test
    void anObserverOverridingLeaseLostAnywhereInItsClassesMakesEveryLeaseWatchedAndHearsEachLoss() {
        Events events = new Events();
        Losses losses = new Losses();
        events.add(new Failures());
        events.add(losses);
        assertThat(events.listening()).isTrue();
        events.lost(null, LossReason.EXPIRED);
        assertThat(losses.heard).containsExactly(LossReason.EXPIRED);
    }

    @Test
    void anObserverOfLossesMadeFromALambdaIsHeardAfterOneThatThrew() {
        Events events = new Events();
        List<LossReason> heard = new ArrayList<>();
        events.add(RedlockObserver.lossesTo((lease, reason) -> {
            throw new IllegalStateException("broken listener");
        }));
        events.add(RedlockObserver.lossesTo((lease, reason) -> heard.add(reason)));
        assertThat(events.listening()).isTrue();
        events.lost(null, LossReason.MAX_HOLD);
        assertThat(heard).containsExactly(LossReason.MAX_HOLD);
    }
}
