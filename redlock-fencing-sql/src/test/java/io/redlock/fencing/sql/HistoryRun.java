package io.redlock.fencing.sql;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Runs a {@link Schedule} on a table: a thread per lease, each granted (started) a moment after the one before, so
 * that many write at once; a paused lease waits after its grant until two later leases are done (bounded), then
 * writes with its stale token. Connections come from a small pool at the isolation level under test.
 */
final class HistoryRun {

    private static final int CONNECTIONS = 8;
    private static final Duration PAUSE_LIMIT = Duration.ofSeconds(10);
    private static final Duration RUN_LIMIT = Duration.ofSeconds(120);

    private HistoryRun() {
    }

    static List<Writer.Outcome> run(Database database, Database.Isolation isolation, Database.Table table,
            Schedule schedule) throws Exception {
        List<Schedule.Lease> leases = schedule.leases();
        BlockingQueue<Connection> pool = new ArrayBlockingQueue<>(CONNECTIONS);
        for (int i = 0; i < CONNECTIONS; i++) {
            pool.add(database.connect(isolation));
        }
        List<CountDownLatch> granted = new ArrayList<>();
        List<CountDownLatch> done = new ArrayList<>();
        leases.forEach(l -> {
            granted.add(new CountDownLatch(1));
            done.add(new CountDownLatch(1));
        });
        List<Writer.Outcome> outcomes = Collections.synchronizedList(new ArrayList<>());
        List<Throwable> failures = Collections.synchronizedList(new ArrayList<>());
        Writer writer = new Writer(table);
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < leases.size(); i++) {
            int index = i;
            Thread thread = new Thread(() -> {
                try {
                    if (index > 0 && !granted.get(index - 1).await(RUN_LIMIT.toSeconds(), TimeUnit.SECONDS)) {
                        throw new AssertionError("lease " + index + " was never granted");
                    }
                    LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(500 + index * 37 % 1500));
                    granted.get(index).countDown();
                    Schedule.Lease lease = leases.get(index);
                    if (lease.paused() && index + 2 < leases.size()) {
                        done.get(index + 2).await(PAUSE_LIMIT.toMillis(), TimeUnit.MILLISECONDS);
                    }
                    Connection connection = pool.take();
                    try {
                        for (Schedule.Op op : lease.ops()) {
                            outcomes.add(writer.run(connection, lease, op));
                        }
                    } finally {
                        pool.add(connection);
                    }
                } catch (Throwable e) {
                    failures.add(e);
                } finally {
                    granted.get(index).countDown();
                    done.get(index).countDown();
                }
            }, "lease-" + leases.get(i).token());
            thread.start();
            threads.add(thread);
        }
        long deadline = System.nanoTime() + RUN_LIMIT.toNanos();
        for (Thread thread : threads) {
            thread.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
            if (thread.isAlive()) {
                throw new AssertionError("seed " + schedule.seed() + ": " + thread.getName() + " still runs after "
                        + RUN_LIMIT);
            }
        }
        for (Connection connection : pool) {
            closeQuietly(connection);
        }
        if (!failures.isEmpty()) {
            AssertionError error = new AssertionError("seed " + schedule.seed() + ": a lease failed", failures.get(0));
            failures.stream().skip(1).forEach(error::addSuppressed);
            throw error;
        }
        return outcomes;
    }

    private static void closeQuietly(Connection connection) {
        try {
            connection.close();
        } catch (SQLException e) {
            // closing after the run: nothing left to check on it
        }
    }
}
