package io.redlock.spring.app;

import io.redlock.LockOptions;
import io.redlock.Redlock;
import io.redlock.spring.RedlockLockRegistry;
import io.redlock.testkit.history.History;
import io.redlock.testkit.history.Op;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;
import org.springframework.integration.leader.Context;
import org.springframework.integration.leader.DefaultCandidate;
import org.springframework.integration.support.leader.LockRegistryLeaderInitiator;

/** A Spring Boot application that runs for leadership over a {@link RedlockLockRegistry}, recording its terms. */
@SpringBootConfiguration
@EnableAutoConfiguration
public class LeaderApp {

    /** The lease of each leader's lock: 1 s, kept alive while it leads. */
    public static final Duration TTL = Duration.ofSeconds(1);

    @Bean
    LockRegistryLeaderInitiator leaderInitiator(Redlock redlock, Environment environment, History terms) {
        RedlockLockRegistry registry = new RedlockLockRegistry(redlock, LockOptions.builder().ttl(TTL).build(),
                "leader:");
        LockRegistryLeaderInitiator initiator = new LockRegistryLeaderInitiator(registry,
                new RecordingCandidate(environment.getRequiredProperty("spring.application.name"), terms));
        initiator.setHeartBeatMillis(200);
        initiator.setBusyWaitMillis(50);
        return initiator;
    }

    /** Starts the application named {@code name}; its terms as leader go into {@code terms}, shared across apps. */
    public static ConfigurableApplicationContext start(String name, History terms, String... properties) {
        return new SpringApplicationBuilder(LeaderApp.class).web(WebApplicationType.NONE)
                .properties(properties).properties("spring.application.name=" + name, "spring.main.banner-mode=off")
                .initializers(context -> context.getBeanFactory().registerSingleton("terms", terms))
                .run();
    }

    /** A term as leader is an ACQUIRE when granted and a RELEASE when revoked, for the history checker. */
    static final class RecordingCandidate extends DefaultCandidate {

        private final History terms;
        private final AtomicReference<String> term = new AtomicReference<>();
        private int count;

        RecordingCandidate(String name, History terms) {
            super(name, "cluster-leader");
            this.terms = terms;
        }

        @Override
        public synchronized void onGranted(Context ctx) {
            super.onGranted(ctx);
            String id = getId() + "#" + (++count);
            terms.invoke(getId(), Op.ACQUIRE, null, -1, null).okAcquired(id, -1, Long.MAX_VALUE);
            term.set(id);
        }

        @Override
        public synchronized void onRevoked(Context ctx) {
            String id = term.getAndSet(null);
            if (id != null) {
                terms.invoke(getId(), Op.RELEASE, id, -1, null).ok();
            }
            super.onRevoked(ctx);
        }
    }
}
