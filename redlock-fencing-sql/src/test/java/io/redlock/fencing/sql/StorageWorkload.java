package io.redlock.fencing.sql;

import io.redlock.Lease;
import io.redlock.Redlock;
import io.redlock.fencing.Fence;
import io.redlock.fencing.FencedJdbc;
import io.redlock.fencing.FencedResult;
import io.redlock.testkit.PostgresServer;
import io.redlock.testkit.RedisNodes;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The fault rows' workload with the storage on PostgreSQL: {@value #WORKERS} workers, each its own Redlock client on
 * the 5 lock nodes and its own connection (READ COMMITTED, the default), take the lock on one account (TTL
 * {@link #TTL}) and, holding it, do a fenced read-modify-write of the fenced counter — {@code claim} (the read is
 * fenced), read, {@link Hook#inCriticalSection}, {@code update} with the audit row in one transaction — and a plain
 * read-modify-write of the plain counter, no token. Every acquisition, refusal and acknowledged write is counted.
 */
final class StorageWorkload {

    static final int WORKERS = 3;
    static final Duration TTL = Duration.ofMillis(600);
    static final Duration WAIT = TTL.multipliedBy(3);
    static final long FENCED = 1;
    static final long PLAIN = 2;
    /** Long enough for a loaded machine's replies; TTL − drift − this still leaves most of the TTL valid. */
    static final Duration NODE_TIMEOUT = Duration.ofMillis(150);

    /** What a row does inside a holder's critical section, between the read and the write. */
    interface Hook {
        void inCriticalSection(int worker, Lease lease, StorageWorkload workload) throws Exception;
    }

    final AtomicInteger acquired = new AtomicInteger();
    final AtomicInteger failed = new AtomicInteger();
    final AtomicInteger unknown = new AtomicInteger();
    final AtomicInteger acknowledged = new AtomicInteger();
    final AtomicInteger refused = new AtomicInteger();
    final AtomicInteger plainWrites = new AtomicInteger();
    final AtomicInteger finishedSections = new AtomicInteger();
    /** Each acquired lease's {@link Lease#validUntil()} (a {@link System#nanoTime()} reading: the default ticker). */
    private final Queue<Long> validUntils = new ConcurrentLinkedQueue<>();

    private final PostgresServer postgres;
    private final RedisNodes nodes;
    private final FencedJdbc fenced;
    private final String table;
    private volatile String firstWorkerUrl;

    StorageWorkload(PostgresServer postgres, RedisNodes nodes, String table) throws SQLException {
        this.postgres = postgres;
        this.firstWorkerUrl = postgres.jdbcUrl();
        this.nodes = nodes;
        this.table = table;
        this.fenced = FencedJdbc.forTable(table, "id");
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE " + table + " (id BIGINT PRIMARY KEY, balance BIGINT NOT NULL)");
            for (String ddl : fenced.ddl()) {
                statement.execute(ddl);
            }
            statement.execute("CREATE TABLE " + table + "_audit (seq BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY"
                    + " KEY, token BIGINT NOT NULL)");
            statement.execute("INSERT INTO " + table + " (id, balance) VALUES (" + FENCED + ", 0), (" + PLAIN + ", 0)");
        }
    }

    /** Worker 0 reaches the storage through {@code proxy} (a {@code TcpProxy} to the server): its network faults. */
    StorageWorkload firstWorkerThrough(io.redlock.testkit.TcpProxy proxy) {
        firstWorkerUrl = "jdbc:postgresql://" + proxy.address() + "/" + postgres.database();
        return this;
    }

    /** Runs the workers until {@code until} returns false (checked between critical sections); bounded by 60 s. */
    void run(java.util.function.BooleanSupplier until, Hook hook) throws Exception {
        List<Thread> threads = new ArrayList<>();
        List<Throwable> failures = java.util.Collections.synchronizedList(new ArrayList<>());
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        for (int w = 0; w < WORKERS; w++) {
            int worker = w;
            Thread thread = new Thread(() -> {
                try (Redlock redlock = Redlock.builder().nodes(nodes.uris()).nodeTimeout(NODE_TIMEOUT)
                        .build(); Connection connection = connect(worker); Connection plain = connect(worker)) {
                    while (until.getAsBoolean() && System.nanoTime() - deadline < 0) {
                        section(redlock, connection, plain, worker, hook);
                    }
                } catch (Throwable e) {
                    failures.add(e);
                }
            }, "storage-worker-" + w);
            thread.start();
            threads.add(thread);
        }
        for (Thread thread : threads) {
            thread.join(Duration.ofSeconds(90).toMillis());
            if (thread.isAlive()) {
                throw new AssertionError(thread.getName() + " still runs after 90 s");
            }
        }
        if (!failures.isEmpty()) {
            throw new AssertionError("a worker failed", failures.get(0));
        }
    }

    private void section(Redlock redlock, Connection connection, Connection plain, int worker, Hook hook)
            throws Exception {
        Optional<Lease> acquiredLease;
        try {
            acquiredLease = redlock.acquire("account", TTL, WAIT);
        } catch (RuntimeException e) {
            unknown.incrementAndGet();
            return;
        }
        if (acquiredLease.isEmpty()) {
            failed.incrementAndGet();
            return;
        }
        try (Lease lease = acquiredLease.get()) {
            validUntils.add(lease.validUntil());
            acquired.incrementAndGet();
            Fence fence = Fence.of(lease);
            if (!fenced.claim(connection, FENCED, fence).accepted()) {
                refused.incrementAndGet();
                return;
            }
            long balance = balance(connection, FENCED);
            long plainBalance = balance(plain, PLAIN);
            hook.inCriticalSection(worker, lease, this);
            connection.setAutoCommit(false);
            try {
                FencedResult<Integer> write = fenced.update(connection, FENCED, fence, "balance = ?", balance + 1);
                if (write.accepted()) {
                    try (PreparedStatement audit = connection.prepareStatement(
                            "INSERT INTO " + table + "_audit (token) VALUES (?)")) {
                        audit.setLong(1, fence.token());
                        audit.executeUpdate();
                    }
                    connection.commit();
                    acknowledged.incrementAndGet();
                } else {
                    connection.rollback();
                    refused.incrementAndGet();
                }
            } finally {
                connection.setAutoCommit(true);
            }
            try (PreparedStatement write = plain.prepareStatement("UPDATE " + table + " SET balance = ? WHERE id = ?")) {
                write.setLong(1, plainBalance + 1);
                write.setLong(2, PLAIN);
                write.executeUpdate();
                plainWrites.incrementAndGet();
            }
        } finally {
            finishedSections.incrementAndGet();
        }
    }

    /**
     * Acquisitions whose granting attempt certainly started after the {@link System#nanoTime()} reading {@code since}:
     * a lease is valid until its attempt's start + TTL − drift, so one valid until later than {@code since} + TTL began
     * after it, however long the worker was paused before or after the grant.
     */
    long acquiredStartingAfter(long since) {
        return validUntils.stream().filter(until -> until - TTL.toNanos() - since > 0).count();
    }

    /** The fenced counter's balance: must equal the acknowledged increments. */
    long fencedBalance() throws SQLException {
        try (Connection connection = connect()) {
            return balance(connection, FENCED);
        }
    }

    /** Plain increments lost: written minus the counter. */
    long plainLost() throws SQLException {
        try (Connection connection = connect()) {
            return plainWrites.get() - balance(connection, PLAIN);
        }
    }

    /** How many times an accepted token was lower than one accepted before it (must be 0). */
    long tokenViolations() throws SQLException {
        long violations = 0;
        long highest = 0;
        try (Connection connection = connect(); Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery("SELECT token FROM " + table + "_audit ORDER BY seq")) {
            while (rows.next()) {
                long token = rows.getLong(1);
                if (token <= highest) {
                    violations++;
                }
                highest = Math.max(highest, token);
            }
        }
        return violations;
    }

    private Connection connect() throws SQLException {
        return DriverManager.getConnection(postgres.jdbcUrl(), postgres.user(), postgres.password());
    }

    private Connection connect(int worker) throws SQLException {
        String url = worker == 0 ? firstWorkerUrl : postgres.jdbcUrl();
        return DriverManager.getConnection(url, postgres.user(), postgres.password());
    }

    private long balance(Connection connection, long id) throws SQLException {
        try (Statement statement = connection.createStatement();
                ResultSet row = statement.executeQuery("SELECT balance FROM " + table + " WHERE id = " + id)) {
            row.next();
            return row.getLong(1);
        }
    }
}
