package io.redlock.internal.release;

import io.netty.util.internal.ThreadExecutorMap;
import io.redlock.Ticker;
import io.redlock.internal.time.Deadline;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Work a client has sent and lets finish when it closes: deletes still being confirmed, queue leaves, acquisition
 * rounds in flight (a lease they win after the close is released). Thread-safe.
 */
public final class PendingWork {

    private static final Logger log = LoggerFactory.getLogger(PendingWork.class);

    private final Set<CompletableFuture<?>> pending = ConcurrentHashMap.newKeySet();

    /** Keeps {@code work} until it completes. */
    public void track(CompletableFuture<?> work) {
        if (work.isDone()) {
            return;
        }
        pending.add(work);
        work.whenComplete((done, failure) -> pending.remove(work));
    }

    /**
     * Waits, at most {@code wait} on {@code ticker}, until all of it has finished, including work it started
     * meanwhile. Returns at once on an I/O thread, which would have to deliver the replies waited for.
     */
    void awaitFinished(Ticker ticker, Duration wait) {
        if (ThreadExecutorMap.currentExecutor() != null) {
            return;
        }
        Deadline deadline = Deadline.after(ticker, wait);
        while (!pending.isEmpty()) {
            CompletableFuture<?>[] now = pending.toArray(CompletableFuture[]::new);
            try {
                CompletableFuture.allOf(now).get(deadline.nanosLeft(), TimeUnit.NANOSECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (TimeoutException e) {
                log.debug("closing with {} delete(s) or round(s) unfinished; their keys expire by their TTL",
                        now.length);
                return;
            } catch (ExecutionException e) {
                // failed: finished all the same
            }
        }
    }
}
