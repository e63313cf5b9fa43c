package io.redlock.testkit;

import java.nio.file.Path;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real MariaDB server (Debian's package {@code mariadb-server}: {@code mariadb-install-db} and {@code mariadbd}),
 * as a {@link SqlServer}: a data directory created by {@code mariadb-install-db} in the temp dir, no option files
 * read ({@code --no-defaults}), listening on 127.0.0.1 and on a unix socket in the temp dir, no binary log, InnoDB
 * flushing once a second; the user {@value SqlServer#USER} and the database {@code redlock} created by an init file
 * at each start; stopped with SIGTERM (its clean shutdown).
 */
public final class MariaDbServer extends SqlServer {

    private static final Logger log = LoggerFactory.getLogger(MariaDbServer.class);

    private final Path mariadbd = SqlBinaries.mariadbd();
    private final Path installDb = SqlBinaries.mariadbInstallDb();

    private MariaDbServer() {
        super("redlock-mariadb-", "mariadbd", "ready for connections", "TERM");
    }

    /** Starts a new server. @throws IllegalStateException naming the package to install if MariaDB is absent */
    public static MariaDbServer launch() {
        return started(new MariaDbServer());
    }

    /**
     * {@code mariadb-install-db}, once more on a fresh data directory if it fails: its bootstrap server failed once in
     * a CI run of the whole build (exit 1) and not in 12 runs side by side on a quiet machine; the first failure's
     * output is logged, a second one fails the start.
     */
    @Override
    void initialize() {
        List<String> installDbCommand = List.of(installDb.toString(), "--no-defaults", "--datadir=" + dataDir(),
                "--auth-root-authentication-method=socket", "--skip-test-db");
        try {
            runToEnd("mariadb-install-db", installDbCommand);
        } catch (IllegalStateException first) {
            log.warn("retrying on a fresh data directory: {}", first.getMessage());
            Processes.deleteNow(dataDir());
            runToEnd("mariadb-install-db", installDbCommand);
        }
        secretFile("init.sql", "CREATE USER IF NOT EXISTS '" + USER + "'@'127.0.0.1' IDENTIFIED BY '" + password()
                + "';\nGRANT ALL ON *.* TO '" + USER + "'@'127.0.0.1';\nCREATE DATABASE IF NOT EXISTS "
                + database() + ";\n");
    }

    @Override
    List<String> command(int port) {
        return List.of(mariadbd.toString(), "--no-defaults", "--datadir=" + dataDir(),
                "--socket=" + dir().resolve("mariadbd.sock"), "--port=" + port, "--bind-address=" + ServerProbes.HOST,
                "--pid-file=" + dir().resolve("mariadbd.pid"), "--init-file=" + dir().resolve("init.sql"),
                "--skip-log-bin", "--innodb-flush-log-at-trx-commit=0", "--innodb-buffer-pool-size=64M",
                "--innodb-log-file-size=16M", "--max-connections=200", "--skip-name-resolve");
    }

    @Override
    public String jdbcUrl() {
        return "jdbc:mariadb://" + host() + ":" + port() + "/" + database();
    }

    @Override
    public String database() {
        return "redlock";
    }

    private Path dataDir() {
        return dir().resolve("data");
    }
}
