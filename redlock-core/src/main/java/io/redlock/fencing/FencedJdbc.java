package io.redlock.fencing;

import io.redlock.RedlockException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Fenced writes on a SQL table through plain JDBC. Each row carries the highest token accepted for it in a
 * {@code fence} column, the lease that holds it in {@code fence_owner}, and {@code fence_deleted} for a deleted row
 * (a tombstone: it keeps the fence, so an older lease cannot bring the row back). Every statement checks and records
 * the fence in one statement, atomic with the change:
 *
 * <pre>{@code
 * update:  UPDATE t SET <your assignments>, fence = ?, fence_owner = ?
 *           WHERE id = ? AND fence_deleted = FALSE AND (fence < ? OR (fence = ? AND fence_owner = ?))
 * delete:  UPDATE t SET fence_deleted = TRUE, fence = ?, fence_owner = ? WHERE id = ? AND fence_deleted = FALSE AND (...)
 * claim:   UPDATE t SET fence = ?, fence_owner = ? WHERE id = ? AND (...)
 * upsert:  PostgreSQL  INSERT ... ON CONFLICT (id) DO UPDATE SET ... WHERE (...)
 *          MariaDB     INSERT ... ON DUPLICATE KEY UPDATE c = IF((...), VALUES(c), c), ..., fence last
 *          others (H2) MERGE INTO t USING (VALUES ...) ON ... WHEN MATCHED AND (...) THEN UPDATE ... WHEN NOT MATCHED THEN INSERT ...
 * }</pre>
 *
 * The upsert's form is picked from the connection's {@code DatabaseMetaData.getDatabaseProductName()}. When nothing
 * was written the row is read back ({@code SELECT ... FOR UPDATE}) and the result says why: a newer token won
 * ({@link FencedResult#highestToken()}), or the row does not exist ({@link FencedResult#missing()}). A conflict with
 * another transaction (SQLState 40001 or 40P01) is a {@link TransactionConflictException}: retryable, see there.
 * Tested on H2, PostgreSQL 15 (READ COMMITTED, REPEATABLE READ, SERIALIZABLE) and MariaDB 10.11 (REPEATABLE READ,
 * SERIALIZABLE); docs/FENCING.md, "Fenced SQL, server by server". Immutable and thread-safe; the caller owns the
 * connection and its transaction: fence several rows together by doing it in one transaction and rolling back if any
 * is refused.
 */
public final class FencedJdbc {

    private final FenceColumns columns;

    private FencedJdbc(FenceColumns columns) {
        this.columns = columns;
    }

    /**
     * Fenced writes on {@code table}, rows identified by {@code idColumn}, with the columns {@code fence},
     * {@code fence_owner} and {@code fence_deleted}.
     */
    public static FencedJdbc forTable(String table, String idColumn) {
        return new FencedJdbc(new FenceColumns(table, idColumn, "fence", "fence_owner", "fence_deleted"));
    }

    /** The same table with other names for the fence and owner columns (the deleted column keeps its name). */
    public FencedJdbc withColumns(String fenceColumn, String ownerColumn) {
        return withColumns(fenceColumn, ownerColumn, columns.deleted());
    }

    /** The same table with other names for the three fencing columns. */
    public FencedJdbc withColumns(String fenceColumn, String ownerColumn, String deletedColumn) {
        return new FencedJdbc(new FenceColumns(columns.table(), columns.id(), fenceColumn, ownerColumn, deletedColumn));
    }

    /** The statements that add the fencing columns to an existing table, the same on H2, PostgreSQL and MariaDB. */
    public List<String> ddl() {
        String alter = "ALTER TABLE " + columns.table() + " ADD COLUMN ";
        return List.of(alter + columns.fence() + " BIGINT DEFAULT 0 NOT NULL",
                alter + columns.owner() + " VARCHAR(64)",
                alter + columns.deleted() + " BOOLEAN DEFAULT FALSE NOT NULL");
    }

    /**
     * Runs {@code UPDATE table SET <assignments>, fence = token, fence_owner = owner} on the live row if the fence is
     * current. {@code assignments} is trusted SQL such as {@code "balance = balance + ?"}; {@code parameters} bind its
     * placeholders. Accepted: the value is the row count (1). A row that does not exist or was deleted is
     * {@link FencedResult#missing()}: create it with {@link #upsert}.
     */
    public FencedResult<Integer> update(Connection connection, Object id, Fence fence, String assignments,
            Object... parameters) {
        Objects.requireNonNull(assignments, "assignments");
        String sql = "UPDATE " + columns.table() + " SET " + assignments + ", " + fenceAssignments() + " WHERE "
                + columns.id() + " = ? AND " + columns.deleted() + " = FALSE AND " + check();
        return write(connection, "fenced update", id, fence, sql, List.of(parameters));
    }

    /**
     * Deletes the row if the fence is current, leaving a tombstone ({@code fence_deleted = TRUE}) that keeps the
     * fence: only a newer lease can {@link #upsert} it back, and reads should skip deleted rows. A row that does not
     * exist or is already deleted is {@link FencedResult#missing()}.
     */
    public FencedResult<Integer> delete(Connection connection, Object id, Fence fence) {
        String sql = "UPDATE " + columns.table() + " SET " + columns.deleted() + " = TRUE, " + fenceAssignments()
                + " WHERE " + columns.id() + " = ? AND " + columns.deleted() + " = FALSE AND " + check();
        return write(connection, "fenced delete", id, fence, sql, List.of());
    }

    /**
     * Records the fence on the row without changing anything else: call it before reading a row you will write back
     * (read-modify-write), so a stale holder that read earlier cannot overwrite what a newer holder read.
     */
    public FencedResult<Integer> claim(Connection connection, Object id, Fence fence) {
        String sql = "UPDATE " + columns.table() + " SET " + fenceAssignments() + " WHERE " + columns.id() + " = ? AND "
                + check();
        return write(connection, "fenced claim", id, fence, sql, List.of());
    }

    /**
     * Inserts the row with {@code values} (column to value, in order) if no row has the key, else sets them if the
     * fence is current, also on a tombstone (a newer lease may create a deleted row again; an older one may not). Of
     * two leases racing to create a row, the older one is refused once the newer one wrote, whichever came first.
     */
    public FencedResult<Integer> upsert(Connection connection, Object id, Fence fence, Map<String, ?> values) {
        Objects.requireNonNull(values, "values");
        List<String> names = new ArrayList<>();
        values.keySet().forEach(name -> names.add(columns.dataColumn(name)));
        Upserts form = Upserts.forProduct(product(connection));
        List<Object> parameters = new ArrayList<>();
        parameters.add(id);
        parameters.addAll(values.values());
        parameters.add(fence.token());
        parameters.add(fence.owner());
        String sql = form.sql(columns, names);
        try (PreparedStatement upsert = connection.prepareStatement(sql)) {
            bind(upsert, parameters);
            int rows = upsert.executeUpdate();
            if (rows > 0 && !(form.ambiguousCount() && rows == 1)) {
                return FencedResult.accepted(1, fence.token());
            }
        } catch (SQLException e) {
            throw SqlFailures.translate("fenced upsert of " + columns.table() + " " + id, e);
        }
        return readBack(connection, id, fence);
    }

    /** The highest token accepted for the row, deleted or not; 0 if there is no row (no token accepted yet). */
    public long highestToken(Connection connection, Object id) {
        String sql = "SELECT " + columns.fence() + " FROM " + columns.table() + " WHERE " + columns.id() + " = ?";
        try (PreparedStatement select = connection.prepareStatement(sql)) {
            select.setObject(1, id);
            try (ResultSet row = select.executeQuery()) {
                return row.next() ? row.getLong(1) : 0;
            }
        } catch (SQLException e) {
            throw SqlFailures.translate("reading the fence of " + columns.table() + " " + id, e);
        }
    }

    private String fenceAssignments() {
        return columns.fence() + " = ?, " + columns.owner() + " = ?";
    }

    private String check() {
        return columns.current("", "?", "?");
    }

    private FencedResult<Integer> write(Connection connection, String what, Object id, Fence fence, String sql,
            List<Object> assignmentParameters) {
        Objects.requireNonNull(connection, "connection");
        Objects.requireNonNull(fence, "fence");
        List<Object> parameters = new ArrayList<>(assignmentParameters);
        parameters.addAll(List.of(fence.token(), fence.owner(), id, fence.token(), fence.token(), fence.owner()));
        try (PreparedStatement statement = connection.prepareStatement(sql)) {
            bind(statement, parameters);
            int rows = statement.executeUpdate();
            if (rows > 0) {
                return FencedResult.accepted(rows, fence.token());
            }
        } catch (SQLException e) {
            throw SqlFailures.translate(what + " of " + columns.table() + " " + id, e);
        }
        return readBack(connection, id, fence);
    }

    /**
     * Why nothing was written, read with {@code FOR UPDATE} (the latest committed row, also under a snapshot, and
     * locked for the rest of the transaction): the row is this lease's already (a driver counting changed rows only,
     * or MariaDB's upsert count), a newer token holds it, or it does not exist.
     */
    private FencedResult<Integer> readBack(Connection connection, Object id, Fence fence) {
        String sql = "SELECT " + columns.fence() + ", " + columns.owner() + ", " + columns.deleted() + " FROM "
                + columns.table() + " WHERE " + columns.id() + " = ? FOR UPDATE";
        try (PreparedStatement select = connection.prepareStatement(sql)) {
            select.setObject(1, id);
            try (ResultSet row = select.executeQuery()) {
                if (!row.next()) {
                    return FencedResult.rejected(fence.token(), 0);
                }
                long highest = row.getLong(1);
                boolean ours = highest == fence.token() && fence.owner().equals(row.getString(2));
                if (ours && !row.getBoolean(3)) {
                    return FencedResult.accepted(1, fence.token());
                }
                if (ours || highest < fence.token()) {
                    return FencedResult.rejected(fence.token(), 0); // not the fence: a tombstone, or a row created since
                }
                return FencedResult.rejected(fence.token(), highest);
            }
        } catch (SQLException e) {
            throw SqlFailures.translate("reading the fence of " + columns.table() + " " + id, e);
        }
    }

    private static void bind(PreparedStatement statement, List<Object> parameters) throws SQLException {
        for (int i = 0; i < parameters.size(); i++) {
            statement.setObject(i + 1, parameters.get(i));
        }
    }

    private static String product(Connection connection) {
        try {
            return connection.getMetaData().getDatabaseProductName();
        } catch (SQLException e) {
            throw new RedlockException("cannot read the database's product name: " + e.getMessage(), e);
        }
    }
}
