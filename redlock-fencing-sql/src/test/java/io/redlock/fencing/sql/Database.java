package io.redlock.fencing.sql;

import io.redlock.fencing.FencedJdbc;
import io.redlock.testkit.MariaDbServer;
import io.redlock.testkit.PostgresServer;
import io.redlock.testkit.SqlServer;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A server under test and what the tests need of it: connections at an isolation level, a fresh fenced table
 * ({@code id, balance, trail} plus {@link FencedJdbc#ddl()}, run as given) and its audit table. The isolation levels
 * tested are the server's default and its strictest.
 */
final class Database {

    /** An isolation level by name and JDBC constant. */
    record Isolation(String name, int level) {
        @Override
        public String toString() {
            return name;
        }
    }

    static final Isolation READ_COMMITTED = new Isolation("READ COMMITTED", Connection.TRANSACTION_READ_COMMITTED);
    static final Isolation REPEATABLE_READ = new Isolation("REPEATABLE READ", Connection.TRANSACTION_REPEATABLE_READ);
    static final Isolation SERIALIZABLE = new Isolation("SERIALIZABLE", Connection.TRANSACTION_SERIALIZABLE);

    /** A fenced table by name. */
    record Table(String name, FencedJdbc fenced) {
        String audit() {
            return name + "_audit";
        }
    }

    private static final AtomicInteger TABLES = new AtomicInteger();

    private final String name;
    private final SqlServer server;
    private final List<Isolation> isolations;

    private Database(String name, SqlServer server, List<Isolation> isolations) {
        this.name = name;
        this.server = server;
        this.isolations = isolations;
    }

    /** PostgreSQL: READ COMMITTED (its default), REPEATABLE READ and SERIALIZABLE. */
    static Database postgres() {
        return new Database("PostgreSQL", PostgresServer.launch(), List.of(READ_COMMITTED, REPEATABLE_READ,
                SERIALIZABLE));
    }

    /** MariaDB: REPEATABLE READ (its default) and SERIALIZABLE. */
    static Database mariadb() {
        return new Database("MariaDB", MariaDbServer.launch(), List.of(REPEATABLE_READ, SERIALIZABLE));
    }

    List<Isolation> isolations() {
        return isolations;
    }

    /** The default isolation level, the first of {@link #isolations()}. */
    Isolation defaultIsolation() {
        return isolations.get(0);
    }

    SqlServer server() {
        return server;
    }

    /** A new connection in autocommit mode at {@code isolation}. */
    Connection connect(Isolation isolation) throws SQLException {
        Connection connection = DriverManager.getConnection(server.jdbcUrl(), server.user(), server.password());
        connection.setTransactionIsolation(isolation.level());
        return connection;
    }

    /**
     * A new table {@code account_<n>} ({@code id BIGINT} key, {@code balance}, {@code trail} of the tokens that
     * wrote) with the fencing columns added by {@code ddl()} exactly as it gives them, and {@code <table>_audit}, where
     * a writer records each accepted operation in the operation's own transaction.
     */
    Table newTable() throws SQLException {
        String table = "account_" + TABLES.incrementAndGet();
        FencedJdbc fenced = FencedJdbc.forTable(table, "id");
        try (Connection connection = connect(defaultIsolation()); Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE " + table + " (id BIGINT PRIMARY KEY, balance BIGINT DEFAULT 0 NOT NULL,"
                    + " trail VARCHAR(8000) DEFAULT '' NOT NULL)");
            for (String ddl : fenced.ddl()) {
                statement.execute(ddl);
            }
            statement.execute("CREATE TABLE " + table + "_audit (seq BIGINT " + autoIncrement() + " PRIMARY KEY,"
                    + " row_id BIGINT NOT NULL, token BIGINT NOT NULL, op VARCHAR(16) NOT NULL)");
        }
        return new Table(table, fenced);
    }

    private String autoIncrement() {
        return server instanceof PostgresServer ? "GENERATED ALWAYS AS IDENTITY" : "AUTO_INCREMENT";
    }

    /** Stops the server (not AutoCloseable: JUnit would close a parameter after each invocation). */
    void close() {
        server.close();
    }

    @Override
    public String toString() {
        return name;
    }
}
