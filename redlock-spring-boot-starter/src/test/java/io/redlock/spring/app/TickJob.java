package io.redlock.spring.app;

import io.redlock.Lease;
import io.redlock.spring.Leases;
import io.redlock.spring.Locked;
import io.redlock.spring.OnBusy;
import org.springframework.scheduling.annotation.Scheduled;

/** A {@code @Scheduled} job under {@code @Locked} with a minimum hold time, ticking much faster than that time. */
public class TickJob {

    /** The job's tick. */
    public static final long TICK_MILLIS = 50;
    /** How long the lock stays taken after a run starts, however short the run. */
    public static final long AT_LEAST_MILLIS = 1500;
    /** The lease of a run: far longer than a run, so no extension moves its validity during one. */
    public static final long TTL_MILLIS = 30_000;

    private final String app;
    private final Sections sections;

    TickJob(String app, Sections sections) {
        this.app = app;
        this.sections = sections;
    }

    @Scheduled(fixedRate = TICK_MILLIS)
    @Locked(resource = "'tick'", ttl = "30s", maxWait = "0s", onBusy = OnBusy.SKIP, lockAtLeastFor = "1500ms")
    public void tick() throws InterruptedException {
        long start = System.nanoTime();
        Lease lease = Leases.current().orElseThrow();
        Thread.sleep(10); // the job's work
        sections.add(new Sections.Section(app, Thread.currentThread().getName(), start, System.nanoTime(),
                lease.fencingToken(), lease.validUntil()));
    }
}
