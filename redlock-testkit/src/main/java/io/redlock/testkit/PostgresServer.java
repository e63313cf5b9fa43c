package io.redlock.testkit;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * A real PostgreSQL server (Debian's package {@code postgresql}: {@code initdb} and {@code postgres} from the newest
 * {@code /usr/lib/postgresql/<version>/bin}), as a {@link SqlServer}: a cluster created by {@code initdb} in the temp
 * dir (superuser {@value SqlServer#USER}, password authentication), listening on 127.0.0.1 and on a unix socket in the
 * temp dir, {@code fsync} off; stopped with SIGINT (fast shutdown). Tests use the database {@code postgres}.
 */
public final class PostgresServer extends SqlServer {

    private final Path bin = SqlBinaries.postgresBin();

    private PostgresServer() {
        super("redlock-postgres-", "postgres", "database system is ready to accept connections", "INT");
    }

    /** Starts a new server. @throws IllegalStateException naming the package to install if PostgreSQL is absent */
    public static PostgresServer launch() {
        return started(new PostgresServer());
    }

    @Override
    void initialize() {
        Path passwordFile = secretFile("pwfile", password() + "\n");
        runToEnd("initdb", List.of(bin.resolve("initdb").toString(), "-D", dataDir().toString(), "-U", USER,
                "--pwfile=" + passwordFile, "-A", "scram-sha-256", "--no-sync", "--no-instructions", "-E", "UTF8",
                "--locale=C.UTF-8"));
    }

    @Override
    List<String> command(int port) {
        return List.of(bin.resolve("postgres").toString(), "-D", dataDir().toString(), "-h", ServerProbes.HOST,
                "-p", Integer.toString(port), "-k", dir().toString(), "-c", "fsync=off", "-c",
                "synchronous_commit=off", "-c", "full_page_writes=off", "-c", "logging_collector=off",
                "-c", "max_connections=100");
    }

    @Override
    public String jdbcUrl() {
        return "jdbc:postgresql://" + host() + ":" + port() + "/" + database();
    }

    @Override
    public String database() {
        return "postgres";
    }

    /** The {@code psql} of the same version. */
    public Path psql() {
        return bin.resolve("psql");
    }

    /**
     * The libpq variables that point {@code psql} (or any libpq client) at this server, password included: give them
     * to a child process's environment, never print them.
     */
    public Map<String, String> clientEnvironment() {
        return Map.of("PGHOST", host(), "PGPORT", Integer.toString(port()), "PGUSER", user(),
                "PGPASSWORD", password(), "PGDATABASE", database());
    }

    private Path dataDir() {
        return dir().resolve("data");
    }
}
