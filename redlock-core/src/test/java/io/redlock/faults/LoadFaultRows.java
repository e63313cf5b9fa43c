package io.redlock.faults;

import static io.redlock.faults.RowBench.PATIENCE;

import io.redlock.Lease;
import io.redlock.Redlock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

/** Row F35: a burst of work from the client itself, beside what its watchdog keeps alive. */
final class LoadFaultRows {

    /** Leases released at once, in each of {@link #BURSTS} bursts. */
    private static final int BURST = 10_000;
    private static final int BURSTS = 2;
    private static final int KEPT = 30;
    /** Acquisitions on their way at once while the leases of a burst are taken. */
    private static final int IN_FLIGHT = 64;

    private LoadFaultRows() {
    }

    /**
     * F35. One client keeps {@link #KEPT} leases alive (TTL 3 s, extended once a second, per-node timeout 100 ms),
     * takes {@link #BURST} more ({@link #IN_FLIGHT} at a time) and releases them all at once, twice: 5 × {@link #BURST} deletes queued on its
     * connections while the extension rounds fall due. Deletes are paced, so the extensions pass them; no kept lease may
     * be lost. The workers lock beside it throughout.
     */
    static Measured burstOfReleases(RowBench b) throws Exception {
        Workload w = b.workload(b.nodes.uris());
        w.awaitAcquisitions(2, PATIENCE);
        Redlock client = b.closeLater(Redlock.builder().nodes(b.nodes.uris()).nodeTimeout(Duration.ofMillis(100))
                .build());
        KeptLeases kept = b.closeLater(KeptLeases.in(client,
                IntStream.range(0, KEPT).mapToObj(i -> "kept-" + i).toList()));
        for (int burst = 0; burst < BURSTS; burst++) {
            String prefix = "burst-" + burst + "-";
            List<Lease> taken = new ArrayList<>();
            Semaphore inFlight = new Semaphore(IN_FLIGHT); // taken a few at a time: only the release is a burst
            List<CompletableFuture<Optional<Lease>>> attempts = new ArrayList<>();
            for (int i = 0; i < BURST; i++) {
                inFlight.acquire();
                attempts.add(client.tryAcquireAsync(prefix + i, Duration.ofSeconds(30)).toCompletableFuture()
                        .whenComplete((lease, failure) -> inFlight.release()));
            }
            for (CompletableFuture<Optional<Lease>> attempt : attempts) {
                attempt.get(PATIENCE.toSeconds(), TimeUnit.SECONDS).ifPresent(taken::add);
            }
            List<CompletableFuture<Void>> released = taken.stream()
                    .map(lease -> lease.releaseAsync().toCompletableFuture()).toList();
            CompletableFuture.allOf(released.toArray(CompletableFuture[]::new)).get(PATIENCE.toSeconds(),
                    TimeUnit.SECONDS);
        }
        RowBench.sleep(KeptLeases.TTL); // every kept lease's next extension round
        kept.assertNoneLost();
        b.asserted(FaultRow.Also.KEPT_LEASES_SURVIVE);
        kept.release();
        w.awaitAcquisitions(2, PATIENCE);
        w.stop();
        return Measured.of(w);
    }
}
