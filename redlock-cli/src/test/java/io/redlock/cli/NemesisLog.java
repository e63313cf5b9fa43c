package io.redlock.cli;

import io.redlock.testkit.history.History;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * What the clients of a randomized run record: one history per resource, stamped with {@link System#nanoTime()}
 * (the machine's monotonic clock, which the leases' validity deadlines are read on too), and the errors that ended a
 * client.
 *
 * <ul>
 *   <li>{@link #ACCOUNT}: exclusive holds of every kind (plain fenced and unfenced leases, kept-alive
 *       {@code withLock} frames, a {@code RedlockLock}, locks of several resources) and the fenced read-modify-writes
 *       of its counter, those of the {@code redlock run} jobs included;</li>
 *   <li>{@link #CATALOG}: a read-write lock's writer, with its fenced writes, and two readers;</li>
 *   <li>{@link #POOL}: three holders of a semaphore of {@link #PERMITS}.</li>
 * </ul>
 */
final class NemesisLog {

    static final String ACCOUNT = "account";
    static final String CATALOG = "catalog";
    static final String POOL = "pool";
    static final int PERMITS = 2;
    /** The fenced counter of {@code resource} at the storage. */
    static String counter(String resource) {
        return resource + ":counter";
    }

    final History account = new History(System::nanoTime);
    final History catalog = new History(System::nanoTime);
    final History pool = new History(System::nanoTime);
    final List<Throwable> errors = Collections.synchronizedList(new ArrayList<>());

    /** The history of {@code resource}'s holds and fenced calls. */
    History of(String resource) {
        return switch (resource) {
            case ACCOUNT -> account;
            case CATALOG -> catalog;
            case POOL -> pool;
            default -> throw new IllegalArgumentException("no history for " + resource);
        };
    }
}
