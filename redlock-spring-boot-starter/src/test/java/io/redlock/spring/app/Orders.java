package io.redlock.spring.app;

import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.MeterRegistry;
import io.redlock.Lease;
import io.redlock.spring.Leases;
import io.redlock.spring.Locked;
import io.redlock.spring.OnBusy;
import io.redlock.spring.OnUnavailable;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/** A service with {@code @Locked} methods. */
public class Orders {

    private final Inner inner;
    private final MeterRegistry registry;
    private final Sections sections;

    Orders(Inner inner, MeterRegistry registry, Sections sections) {
        this.inner = inner;
        this.registry = registry;
        this.sections = sections;
    }

    /** A short critical section, recorded with its fencing token. */
    @Locked(resource = "'orders:' + #order.id", ttl = "5s", maxWait = "20s")
    public long ship(Order order, String app) throws InterruptedException {
        long start = System.nanoTime();
        Lease lease = Leases.current().orElseThrow();
        Thread.sleep(10);
        long end = System.nanoTime();
        sections.add(new Sections.Section(app, Thread.currentThread().getName(), start, end, lease.fencingToken(),
                lease.validUntil()));
        return lease.fencingToken();
    }

    /** Holds the report lock until released. */
    @Locked(resource = "'report:' + #name", ttl = "10s")
    public void hold(String name, CountDownLatch entered, CountDownLatch release) throws InterruptedException {
        entered.countDown();
        if (!release.await(10, TimeUnit.SECONDS)) {
            throw new IllegalStateException("never released");
        }
    }

    @Locked(resource = "'report:' + #name", maxWait = "0s", onBusy = OnBusy.SKIP)
    public String report(String name) {
        return "report " + name;
    }

    @Locked(resource = "'report:' + #name", maxWait = "0s", onBusy = OnBusy.SKIP)
    public Optional<String> reportIfFree(String name) {
        return Optional.of("report " + name);
    }

    @Locked(resource = "'report:' + #name", maxWait = "0s", onBusy = OnBusy.SKIP)
    public List<String> reportLines(String name) {
        return List.of("report", name);
    }

    @Locked(resource = "'report:' + #name", maxWait = "0s", onBusy = OnBusy.SKIP, onUnavailable = OnUnavailable.FAIL)
    public String reportUnlessDown(String name) {
        return "report " + name;
    }

    @Locked(resource = "'report:' + #name", maxWait = "0s")
    public String reportOrFail(String name) {
        return "report " + name;
    }

    /** The outer lease, the inner one, the outer again after the inner call, and a re-entrant call's lease. */
    @Locked(resource = "'outer:' + #id")
    public List<Lease> nested(String id) {
        Lease outer = Leases.current().orElseThrow();
        Lease innerLease = inner.innerLease(id);
        Lease after = Leases.current().orElseThrow();
        Lease reentered = inner.sameResource("outer:" + id);
        return List.of(outer, innerLease, after, reentered);
    }

    /**
     * Runs {@code lose} (which makes this call's lease lost), then a nested call on the same resource; what that
     * nested call returned or threw goes to {@code nested}.
     */
    @Locked(resource = "'broken:' + #id", ttl = "3s")
    public void nestedAfterLoss(String id, Runnable lose, java.util.concurrent.atomic.AtomicReference<Object> nested) {
        lose.run();
        try {
            nested.set(inner.sameResource("broken:" + id));
        } catch (RuntimeException e) {
            nested.set(e);
        }
    }

    @Locked(resource = "'gauge'")
    public double activeLeasesInside() {
        return registry.get("redlock.leases.active").gauge().value();
    }

    /** Runs until the watchdog has extended the 2 s lease at least once (the first extension is due within it). */
    @Locked(resource = "'slow'", ttl = "2s")
    public long extendedWhileRunning() {
        Lease lease = Leases.current().orElseThrow();
        long firstValidUntil = lease.validUntil();
        await().atMost(Duration.ofSeconds(30)).until(() -> lease.validUntil() != firstValidUntil);
        return lease.validUntil() - firstValidUntil;
    }

    /** Outlives its lease: maxHold stops the extensions; returns whether the loss interrupted it. */
    @Locked(resource = "'short'", ttl = "600ms", maxHold = "200ms")
    public boolean outlive() {
        Lease lease = Leases.current().orElseThrow();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (lease.isValid() && System.nanoTime() - deadline < 0) {
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                return true;
            }
        }
        return false;
    }

    /**
     * Runs {@code sabotage} under a 2 s lease that is kept alive (the first extension comes after about 1.3 s, so the
     * sabotage has time to finish), then waits (at most 10 s) for the loss of the lease to interrupt it;
     * {@code interrupted} tells whether it was.
     */
    @Locked(resource = "#resource", ttl = "2s")
    public void loseWhile(String resource, Runnable sabotage, AtomicBoolean interrupted) {
        Lease lease = Leases.current().orElseThrow();
        sabotage.run();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (System.nanoTime() - deadline < 0) {
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                interrupted.set(!lease.isValid());
                return;
            }
        }
    }

    @Locked(resource = "'checked'")
    public void failChecked() throws IOException {
        throw new IOException("boom");
    }
}
