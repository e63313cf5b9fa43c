package io.redlock.spring.app;

import io.redlock.Lease;
import io.redlock.LockOptions;
import io.redlock.Redlock;
import io.redlock.RedlockLock;
import io.redlock.spring.RedlockLockRegistry;
import io.redlock.testkit.history.History;
import io.redlock.testkit.history.Op;
import java.time.Duration;
import java.util.Optional;
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
 * lock: a term is the lease of the registry's lock, from its acquisition (with its fencing token and validity) to
 * its release, and each time the initiator takes the lock again while it leads, the lease's validity then (renewed
 * by the watchdog) is recorded as an extension. What the lock promises is that no two terms are valid at once; a
 * candidate's callbacks, or its belief that it still leads, may outlast its lease when its process is paused, as
 * Spring Integration's initiator notices a lost lease only at its next heartbeat.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
public class LeaderApp {

    /** The lease of each leader's lock, kept alive while it leads: several node timeouts and watchdog rounds. */
    public static final Duration TTL = Duration.ofSeconds(3);

    /**
     * The per-node timeout of each application ({@code redlock.node-timeout}): at the 50 ms default a slow reply on
     * a loaded machine would cost a leader its extensions, and the term, for no failure at all.
     */
    public static final String NODE_TIMEOUT = "redlock.node-timeout=500ms";

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
                .properties(properties).properties("spring.application.name=" + name, "spring.main.banner-mode=off",
                        NODE_TIMEOUT)
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
         * The registry's lock: a first acquisition is recorded around the call, the last release just before it;
         * the initiator also takes the lock again while it leads, to check it still holds it, and lets go of that:
         * each such nested acquisition records the lease's validity at that moment.
         */
        private final class RecordingLock implements Lock {

            private final RedlockLock lock;
            private int holds;
            private long token = -1;

            RecordingLock(Lock lock) {
                this.lock = (RedlockLock) lock;
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
                Optional<Lease> lease = acquired ? lock.currentLease() : Optional.empty();
                if (call == null) {
                    String id = term.get();
                    if (id != null && lease.isPresent()) { // while it leads: the validity the watchdog renewed
                        terms.invoke(name, Op.EXTEND, id, token, null).okValid(lease.get().validUntil());
                    }
                    return acquired;
                }
                if (acquired) {
                    String id = name + "#" + (++count);
                    token = lease.map(Lease::fencingToken).orElse(-1L);
                    call.okAcquired(id, token, lease.map(Lease::validUntil).orElseGet(System::nanoTime));
                    term.set(id);
                } else {
                    call.fail("another application leads");
                }
                return acquired;
            }
        }
    }
}
