package io.redlock.spring.app;

import io.redlock.LockOptions;
import io.redlock.Redlock;
import io.redlock.spring.RedlockLockRegistry;
import io.redlock.testkit.history.History;
import io.redlock.testkit.history.Op;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.Lock;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;
import org.springframework.integration.leader.DefaultCandidate;
import org.springframework.integration.support.leader.LockRegistryLeaderInitiator;

/**
 * A Spring Boot application that runs for leadership over a {@link RedlockLockRegistry}, recording its terms at the
 * lock: a term runs from the acquisition of the registry's lock to its release. (Spring Integration's initiator
 * unlocks before it calls {@code onRevoked}, so two candidates' callbacks may overlap by a moment while their locks
 * never do: the lock is what this records.)
 */
@SpringBootConfiguration
@EnableAutoConfiguration
public class LeaderApp {

    /** The lease of each leader's lock: 1 s, kept alive while it leads. */
    public static final Duration TTL = Duration.ofSeconds(1);

    @Bean
    LockRegistryLeaderInitiator leaderInitiator(Redlock redlock, Environment environment, History terms) {
        String name = environment.getRequiredProperty("spring.application.name");
        RedlockLockRegistry registry = new RecordingRegistry(redlock, name, terms);
        LockRegistryLeaderInitiator initiator = new LockRegistryLeaderInitiator(registry,
                new DefaultCandidate(name, "cluster-leader"));
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

    /** The registry of one application, whose locks record each term as an ACQUIRE and a RELEASE. */
    static final class RecordingRegistry extends RedlockLockRegistry {

        private final String name;
        private final History terms;
        private final AtomicReference<String> term = new AtomicReference<>();
        private int count;

        RecordingRegistry(Redlock redlock, String name, History terms) {
            super(redlock, LockOptions.builder().ttl(TTL).build(), "leader:");
            this.name = name;
            this.terms = terms;
        }

        @Override
        public Lock obtain(Object lockKey) {
            return new RecordingLock(super.obtain(lockKey));
        }

        /**
         * The registry's lock: a first acquisition is recorded around the call, the last release just before it
         * (the initiator also takes the lock again while it leads, to check it still holds it, and lets go of that).
         */
        private final class RecordingLock implements Lock {

            private final Lock lock;
            private int holds;

            RecordingLock(Lock lock) {
                this.lock = lock;
            }

            @Override
            public void lock() {
                History.Call call = invoke();
                lock.lock();
                acquired(call, true);
            }

            @Override
            public void lockInterruptibly() throws InterruptedException {
                History.Call call = invoke();
                lock.lockInterruptibly();
                acquired(call, true);
            }

            @Override
            public boolean tryLock() {
                History.Call call = invoke();
                return acquired(call, lock.tryLock());
            }

            @Override
            public boolean tryLock(long time, TimeUnit unit) throws InterruptedException {
                History.Call call = invoke();
                return acquired(call, lock.tryLock(time, unit));
            }

            @Override
            public void unlock() {
                String id = --holds == 0 ? term.getAndSet(null) : null;
                History.Call release = id == null ? null : terms.invoke(name, Op.RELEASE, id, -1, null);
                lock.unlock();
                if (release != null) {
                    release.ok();
                }
            }

            @Override
            public Condition newCondition() {
                return lock.newCondition();
            }

            /** A first acquisition's call, recorded; null for a nested one. */
            private History.Call invoke() {
                return holds == 0 ? terms.invoke(name, Op.ACQUIRE, null, -1, null) : null;
            }

            private boolean acquired(History.Call call, boolean acquired) {
                if (acquired) {
                    holds++;
                }
                if (call == null) {
                    return acquired;
                }
                if (acquired) {
                    String id = name + "#" + (++count);
                    call.okAcquired(id, -1, Long.MAX_VALUE);
                    term.set(id);
                } else {
                    call.fail("another application leads");
                }
                return acquired;
            }
        }
    }
}
