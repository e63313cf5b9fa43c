package io.redlock.cli;

import io.redlock.testkit.PostgresServer;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * {@code psql} on a {@link PostgresServer}, as a job would run it: the server in libpq's variables, the password in a
 * {@code .pgpass} file only the test's user reads (never on a command line or in the environment); a session held open
 * to keep a table locked.
 */
final class PostgresClient {

    private final PostgresServer server;
    private final Map<String, String> environment = new HashMap<>();

    PostgresClient(PostgresServer server, Path dir) throws IOException {
        this.server = server;
        Path passFile = dir.resolve("pgpass");
        Files.writeString(passFile, server.host() + ":" + server.port() + ":*:" + server.user() + ":"
                + server.password() + "\n");
        Files.setPosixFilePermissions(passFile, PosixFilePermissions.fromString("rw-------"));
        environment.putAll(server.clientEnvironment());
        environment.remove("PGPASSWORD");
        environment.put("PGPASSFILE", passFile.toString());
        environment.put("PATH", server.psql().getParent() + ":" + System.getenv("PATH")); // the job's psql
    }

    /** libpq's variables for a job: host, port, user, database, the password file; and psql on the PATH. */
    Map<String, String> environment() {
        return Map.copyOf(environment);
    }

    /** The rows {@code sql} returns (unaligned, tuples only), failing on any error. */
    String query(String sql) throws IOException, InterruptedException {
        Process psql = start("-qtAX", "-v", "ON_ERROR_STOP=1", "-c", sql);
        String output = new String(psql.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        if (!psql.waitFor(30, TimeUnit.SECONDS) || psql.exitValue() != 0) {
            psql.destroyForcibly();
            throw new AssertionError("psql failed on " + sql + ": " + output);
        }
        return output;
    }

    /** A session that holds {@code table} locked (ACCESS EXCLUSIVE) until {@link Lock#release()}. */
    Lock lock(String table) throws Exception {
        Process psql = start("-qX", "-v", "ON_ERROR_STOP=1");
        OutputStream in = psql.getOutputStream();
        in.write(("BEGIN;\nLOCK TABLE " + table + " IN ACCESS EXCLUSIVE MODE;\n").getBytes(StandardCharsets.UTF_8));
        in.flush();
        awaitTrue(Duration.ofSeconds(30), () -> answers("SELECT count(*) FROM pg_locks l JOIN pg_class c ON c.oid ="
                + " l.relation WHERE c.relname = '" + table + "' AND l.mode = 'AccessExclusiveLock' AND l.granted", "1"));
        return new Lock(psql);
    }

    /** Whether {@code sql} answers {@code expected} now. */
    boolean answers(String sql, String expected) {
        try {
            return query(sql).equals(expected);
        } catch (IOException | InterruptedException e) {
            throw new AssertionError(e);
        }
    }

    /** Polls {@code condition} until it holds, failing after {@code limit}. */
    static void awaitTrue(Duration limit, BooleanSupplier condition) throws InterruptedException {
        awaitTrue(limit, condition, () -> "");
    }

    /** Polls {@code condition} until it holds, failing after {@code limit} with what {@code state} says then. */
    static void awaitTrue(Duration limit, BooleanSupplier condition, java.util.function.Supplier<String> state)
            throws InterruptedException {
        long deadline = System.nanoTime() + limit.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("not within " + limit + ": " + state.get());
            }
            Thread.sleep(20);
        }
    }

    private Process start(String... args) throws IOException {
        ProcessBuilder builder = new ProcessBuilder(server.psql().toString());
        builder.command().addAll(List.of(args));
        builder.environment().putAll(environment);
        return builder.redirectErrorStream(true).start();
    }

    /** A session holding a lock: {@link #release()} commits and ends it. */
    static final class Lock {
        private final Process psql;

        private Lock(Process psql) {
            this.psql = psql;
        }

        void release() throws IOException, InterruptedException {
            try (OutputStream in = psql.getOutputStream()) {
                in.write("COMMIT;\n".getBytes(StandardCharsets.UTF_8));
            }
            if (!psql.waitFor(30, TimeUnit.SECONDS)) {
                psql.destroyForcibly();
            }
        }
    }
}
