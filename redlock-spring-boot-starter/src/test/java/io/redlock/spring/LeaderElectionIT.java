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
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Leader election with Spring Integration's {@code LockRegistryLeaderInitiator} over a {@link RedlockLockRegistry}:
 * two applications, one leader; when the leader stops, the other takes over (within the TTL, as its lock is released
 * or expires; the time taken is logged, not asserted). Never two leaders whose leases are valid at once, by the
 * history checker on the recorded validities: a leader paused past its lease may still believe it leads (Spring
 * Integration notices the loss at its next heartbeat), which the lock cannot prevent and fencing tokens are for.
 */
@WithRedisNodes(3)
class LeaderElectionIT {

    private static final Logger LOG = LoggerFactory.getLogger(LeaderElectionIT.class);

    /** Room for two application starts and the first elections on a loaded machine. */
    private static final Duration ELECTED = Duration.ofSeconds(60);

    @Test
    void oneOfTwoApplicationsLeadsAndTheOtherTakesOverWhenItStops(RedisNodes nodes) {
        History terms = new History(System::nanoTime);
        String property = "redlock.nodes=" + String.join(",", nodes.uris());
        ConfigurableApplicationContext a = LeaderApp.start("a", terms, property);
        ConfigurableApplicationContext b = LeaderApp.start("b", terms, property);
        try {
            await().atMost(ELECTED).until(() -> leader(terms).isPresent());
            String first = leader(terms).orElseThrow();
            String other = first.equals("a") ? "b" : "a";
            long stopped = System.nanoTime();
            (first.equals("a") ? a : b).close();
            // released on close, or at the latest expired a TTL later: then the other's next try wins
            await().atMost(LeaderApp.TTL.plus(ELECTED)).until(() -> leader(terms).filter(other::equals).isPresent());
            LOG.info("{} took over {} ms after {} stopped", other,
                    Duration.ofNanos(lastGrant(terms) - stopped).toMillis(), first);
        } finally {
            a.close();
            b.close();
        }
        List<Event> events = terms.events();
        assertThat(events.stream().filter(LeaderElectionIT::isTerm).map(Event::process).distinct())
                .containsExactlyInAnyOrder("a", "b");
        CheckResult leaders = Checkers.mutualExclusion(events, Checkers.HoldMode.VALIDITY);
        assertThat(leaders.valid()).as("never two valid leader leases: %s", leaders.violations()).isTrue();
    }

    /** A term as leader: a successful acquisition of the leader lock. */
    private static boolean isTerm(Event event) {
        return event.op() == Op.ACQUIRE && event.outcome() == Outcome.OK;
    }

    /** The application of the latest term not released yet, if any. */
    private static Optional<String> leader(History terms) {
        List<Event> events = terms.events();
        Set<String> released = events.stream().filter(e -> e.op() == Op.RELEASE).map(Event::lease)
                .collect(Collectors.toSet());
        return events.stream().filter(LeaderElectionIT::isTerm).filter(e -> !released.contains(e.lease()))
                .max(Comparator.comparingLong(Event::completedAt)).map(Event::process);
    }

    private static long lastGrant(History terms) {
        return terms.events().stream().filter(LeaderElectionIT::isTerm).mapToLong(Event::completedAt).max()
                .orElseThrow();
    }
}
