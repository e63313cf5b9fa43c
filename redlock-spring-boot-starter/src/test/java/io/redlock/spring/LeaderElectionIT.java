package io.redlock.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.redlock.spring.app.LeaderApp;
import io.redlock.testkit.RedisNodes;
import io.redlock.testkit.history.Checkers;
import io.redlock.testkit.history.CheckResult;
import io.redlock.testkit.history.Event;
import io.redlock.testkit.history.History;
import io.redlock.testkit.history.Op;
import io.redlock.testkit.history.Outcome;
import io.redlock.testkit.junit.WithRedisNodes;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Leader election with Spring Integration's {@code LockRegistryLeaderInitiator} over a {@link RedlockLockRegistry}:
 * two applications, one leader; the leader stops and the other takes over within the TTL and a retry; never two
 * holders of the leader lock at once, by the history checker (Spring Integration unlocks before it revokes, so the
 * candidates' callbacks themselves may overlap by a moment).
 */
@WithRedisNodes(3)
class LeaderElectionIT {

    @Test
    void oneOfTwoApplicationsLeadsAndTheOtherTakesOverWhenItStops(RedisNodes nodes) {
        History terms = new History(System::nanoTime);
        String property = "redlock.nodes=" + String.join(",", nodes.uris());
        ConfigurableApplicationContext a = LeaderApp.start("a", terms, property);
        ConfigurableApplicationContext b = LeaderApp.start("b", terms, property);
        try {
            await().atMost(Duration.ofSeconds(20)).until(() -> granted(terms) == 1);
            String first = terms.events().stream().filter(LeaderElectionIT::isTerm).findFirst().orElseThrow()
                    .process();
            ConfigurableApplicationContext leader = first.equals("a") ? a : b;
            long stopped = System.nanoTime();
            leader.close();
            await().atMost(Duration.ofSeconds(20)).until(() -> granted(terms) == 2);
            Duration takeover = Duration.ofNanos(lastGrant(terms) - stopped);
            assertThat(takeover).as("the other leads within the TTL and a retry")
                    .isLessThan(LeaderApp.TTL.plusMillis(500));
        } finally {
            a.close();
            b.close();
        }
        List<Event> events = terms.events();
        assertThat(events.stream().filter(LeaderElectionIT::isTerm).map(Event::process).distinct())
                .containsExactlyInAnyOrder("a", "b");
        CheckResult leaders = Checkers.mutualExclusion(events, Checkers.HoldMode.CRITICAL_SECTION);
        assertThat(leaders.valid()).as("never two leaders: %s", leaders.violations()).isTrue();
    }

    /** A term as leader: a successful acquisition of the leader lock. */
    private static boolean isTerm(Event event) {
        return event.op() == Op.ACQUIRE && event.outcome() == Outcome.OK;
    }

    private static long granted(History terms) {
        return terms.events().stream().filter(LeaderElectionIT::isTerm).count();
    }

    private static long lastGrant(History terms) {
        return terms.events().stream().filter(LeaderElectionIT::isTerm).mapToLong(Event::invokedAt).max()
                .orElseThrow();
    }
}
