package io.redlock.fencing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.redlock.RedlockConfigException;
import io.redlock.RedlockException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** FencedJdbc against a real embedded SQL database (H2, in memory) through plain JDBC. */
class FencedJdbcTest {

    private final FencedJdbc accounts = FencedJdbc.forTable("account", "id");
    private Connection connection;

    @BeforeEach
    void createTable() throws SQLException {
        connection = DriverManager.getConnection("jdbc:h2:mem:fenced" + System.nanoTime() + ";DB_CLOSE_DELAY=-1");
        try (Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE account (id INT PRIMARY KEY, balance INT NOT NULL)");
            for (String ddl : accounts.ddl()) {
                statement.execute(ddl);
            }
            statement.execute("INSERT INTO account (id, balance) VALUES (1, 100)");
        }
    }

    @AfterEach
    void close() throws SQLException {
        connection.close();
    }

    private int balance() throws SQLException {
        return balance(1);
    }

    private int balance(int id) throws SQLException {
        try (Statement statement = connection.createStatement();
                ResultSet row = statement.executeQuery("SELECT balance FROM account WHERE id = " + id)) {
            row.next();
            return row.getInt(1);
        }
    }

    @Test
    void theDdlAddsAFenceThatStartsAtZero() {
        assertThat(accounts.ddl()).containsExactly(
                "ALTER TABLE account ADD COLUMN fence BIGINT DEFAULT 0 NOT NULL",
                "ALTER TABLE account ADD COLUMN fence_owner VARCHAR(64)",
                "ALTER TABLE account ADD COLUMN fence_deleted BOOLEAN DEFAULT FALSE NOT NULL");
        assertThat(accounts.highestToken(connection, 1)).isZero();
    }

    @Test
    void acceptsIncreasingTokensAndRecordsThem() throws SQLException {
        FencedResult<Integer> first = accounts.update(connection, 1, new Fence(5, "lease-a"), "balance = balance + ?", 10);
        assertThat(first.accepted()).isTrue();
        assertThat(first.value()).isEqualTo(1);
        assertThat(accounts.update(connection, 1, new Fence(9, "lease-b"), "balance = balance + ?", 1).accepted())
                .isTrue();
        assertThat(balance()).isEqualTo(111);
        assertThat(accounts.highestToken(connection, 1)).isEqualTo(9);
    }

    @Test
    void rejectsASmallerTokenAndSaysWhichTokenWon() throws SQLException {
        accounts.update(connection, 1, new Fence(9, "lease-b"), "balance = ?", 50).orElseThrow();
        FencedResult<Integer> stale = accounts.update(connection, 1, new Fence(5, "lease-a"), "balance = ?", 0);
        assertThat(stale.accepted()).isFalse();
        assertThat(stale.token()).isEqualTo(5);
        assertThat(stale.highestToken()).isEqualTo(9);
        assertThat(balance()).isEqualTo(50);
        assertThatThrownBy(stale::orElseThrow).isInstanceOf(StaleTokenException.class)
                .hasMessageContaining("stale fencing token 5").hasMessageContaining("9");
    }

    @Test
    void anEqualTokenIsAcceptedOnlyFromTheSameLease() throws SQLException {
        accounts.update(connection, 1, new Fence(7, "lease-a"), "balance = balance - ?", 10).orElseThrow();
        assertThat(accounts.update(connection, 1, new Fence(7, "lease-a"), "balance = balance - ?", 10).accepted())
                .isTrue();
        assertThat(accounts.update(connection, 1, new Fence(7, "lease-x"), "balance = balance - ?", 10).accepted())
                .isFalse();
        assertThat(balance()).isEqualTo(80);
    }

    @Test
    void aClaimRecordsAReadSoAStaleReadModifyWriteIsRefused() throws SQLException {
        Fence stale = new Fence(3, "lease-a");
        Fence newer = new Fence(4, "lease-b");
        accounts.claim(connection, 1, stale).orElseThrow();
        int staleRead = balance();
        accounts.claim(connection, 1, newer).orElseThrow(); // the newer holder read too, and has not written yet
        assertThat(accounts.update(connection, 1, stale, "balance = ?", staleRead + 1).accepted()).isFalse();
        accounts.update(connection, 1, newer, "balance = ?", balance() + 1).orElseThrow();
        assertThat(balance()).isEqualTo(101);
    }

    @Test
    void aWriteToAMissingRowSaysTheRowIsMissingInsteadOfThrowing() {
        FencedResult<Integer> missing = accounts.update(connection, 42, new Fence(1, "lease-a"), "balance = 0");
        assertThat(missing.accepted()).isFalse();
        assertThat(missing.missing()).isTrue();
        assertThat(missing.highestToken()).isZero();
        assertThatThrownBy(missing::orElseThrow).isInstanceOf(RedlockException.class)
                .isNotInstanceOf(StaleTokenException.class).hasMessageContaining("does not exist");
    }

    @Test
    void anUpsertCreatesAMissingRowAndOfTwoRacingCreatorsTheOlderLoses() throws SQLException {
        Fence older = new Fence(3, "lease-a");
        Fence newer = new Fence(4, "lease-b");
        assertThat(accounts.upsert(connection, 2, newer, Map.of("balance", 40)).accepted()).isTrue();
        FencedResult<Integer> late = accounts.upsert(connection, 2, older, Map.of("balance", 30));
        assertThat(late.accepted()).isFalse();
        assertThat(late.highestToken()).isEqualTo(4);
        assertThat(balance(2)).isEqualTo(40);
        assertThat(accounts.upsert(connection, 2, new Fence(5, "lease-c"), Map.of("balance", 50)).accepted()).isTrue();
        assertThat(balance(2)).isEqualTo(50);
    }

    @Test
    void aDeleteLeavesATombstoneThatAnOlderTokenCannotBringBack() throws SQLException {
        assertThat(accounts.delete(connection, 1, new Fence(6, "lease-a")).accepted()).isTrue();
        assertThat(accounts.update(connection, 1, new Fence(7, "lease-b"), "balance = 1").missing()).isTrue();
        FencedResult<Integer> resurrect = accounts.upsert(connection, 1, new Fence(5, "lease-old"),
                Map.of("balance", 5));
        assertThat(resurrect.accepted()).isFalse();
        assertThat(resurrect.highestToken()).isEqualTo(6);
        assertThat(accounts.upsert(connection, 1, new Fence(8, "lease-c"), Map.of("balance", 8)).accepted()).isTrue();
        assertThat(balance(1)).isEqualTo(8);
    }

    @Test
    void identifiersMustBePlainSoNothingIsInjected() {
        assertThatThrownBy(() -> FencedJdbc.forTable("account; DROP TABLE account", "id"))
                .isInstanceOf(RedlockConfigException.class).hasMessageContaining("table");
        assertThatThrownBy(() -> accounts.withColumns("fence", "owner--"))
                .isInstanceOf(RedlockConfigException.class).hasMessageContaining("owner column");
        assertThat(FencedJdbc.forTable("bank.account", "id").withColumns("token", "token_owner").ddl())
                .first().asString().contains("bank.account ADD COLUMN token BIGINT");
    }

    @Test
    void fencesMustCarryAValidToken() {
        assertThatThrownBy(() -> new Fence(0, "lease")).isInstanceOf(RedlockConfigException.class);
        assertThatThrownBy(() -> new Fence(1L << 53, "lease")).isInstanceOf(RedlockConfigException.class);
        assertThatThrownBy(() -> new Fence(1, " ")).isInstanceOf(RedlockConfigException.class);
    }
}
