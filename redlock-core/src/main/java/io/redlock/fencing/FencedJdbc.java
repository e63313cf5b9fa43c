package io.redlock.fencing;

import io.redlock.RedlockConfigException;
import io.redlock.RedlockException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * Fenced updates on a SQL table through plain JDBC. Each row carries the highest token accepted for it in a
 * {@code fence} column and the lease that holds it in {@code fence_owner}; an update is one statement
 *
 * <pre>{@code
 * UPDATE t SET <your assignments>, fence = ?, fence_owner = ?
 *  WHERE id = ? AND (fence < ? OR (fence = ? AND fence_owner = ?))
 * }</pre>
 *
 * so the check and the record are atomic with the change. Zero rows means a newer lease got there first: the result
 * says which token won. {@link #ddl()} gives the columns to add. Immutable and thread-safe; the caller owns the
 * connection and its transaction.
 */
public final class FencedJdbc {

    private static final Pattern IDENTIFIER = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*(\\.[A-Za-z_][A-Za-z0-9_]*)?");

    private final String table;
    private final String idColumn;
    private final String fenceColumn;
    private final String ownerColumn;

    private FencedJdbc(String table, String idColumn, String fenceColumn, String ownerColumn) {
        this.table = identifier("table", table);
        this.idColumn = identifier("id column", idColumn);
        this.fenceColumn = identifier("fence column", fenceColumn);
        this.ownerColumn = identifier("owner column", ownerColumn);
    }

    /** Fenced updates on {@code table}, rows identified by {@code idColumn}, with columns {@code fence} and {@code fence_owner}. */
    public static FencedJdbc forTable(String table, String idColumn) {
        return new FencedJdbc(table, idColumn, "fence", "fence_owner");
    }

    /** The same table with other names for the two fencing columns. */
    public FencedJdbc withColumns(String fenceColumn, String ownerColumn) {
        return new FencedJdbc(table, idColumn, fenceColumn, ownerColumn);
    }

    /** The statements that add the fencing columns to an existing table (standard SQL; H2, PostgreSQL, MySQL). */
    public List<String> ddl() {
        return List.of(
                "ALTER TABLE " + table + " ADD COLUMN " + fenceColumn + " BIGINT DEFAULT 0 NOT NULL",
                "ALTER TABLE " + table + " ADD COLUMN " + ownerColumn + " VARCHAR(64)");
    }

    /**
     * Runs {@code UPDATE table SET <assignments>, fence = token, fence_owner = owner} on the row if the fence is
     * current. {@code assignments} is trusted SQL such as {@code "balance = balance + ?"}; {@code parameters} bind its
     * placeholders. The accepted result's value is the updated row count (1).
     *
     * @throws RedlockException if the row does not exist or the database fails
     */
    public FencedResult<Integer> update(Connection connection, Object id, Fence fence, String assignments,
            Object... parameters) {
        Objects.requireNonNull(assignments, "assignments");
        String sql = "UPDATE " + table + " SET " + assignments + ", " + fenceColumn + " = ?, " + ownerColumn
                + " = ? WHERE " + idColumn + " = ? AND " + currentCondition();
        return execute(connection, id, fence, sql, parameters);
    }

    /**
     * Records the fence on the row without changing anything else: call it before reading a row you will write back
     * (read-modify-write), so a stale holder that read earlier cannot overwrite what a newer holder read.
     */
    public FencedResult<Integer> claim(Connection connection, Object id, Fence fence) {
        String sql = "UPDATE " + table + " SET " + fenceColumn + " = ?, " + ownerColumn + " = ? WHERE " + idColumn
                + " = ? AND " + currentCondition();
        return execute(connection, id, fence, sql);
    }

    /** The highest token accepted for the row. @throws RedlockException if the row does not exist */
    public long highestToken(Connection connection, Object id) {
        String sql = "SELECT " + fenceColumn + " FROM " + table + " WHERE " + idColumn + " = ?";
        try (PreparedStatement select = connection.prepareStatement(sql)) {
            select.setObject(1, id);
            try (ResultSet row = select.executeQuery()) {
                if (!row.next()) {
                    throw new RedlockException("no row in " + table + " with " + idColumn + " = " + id);
                }
                return row.getLong(1);
            }
        } catch (SQLException e) {
            throw new RedlockException("cannot read the fence of " + table + " " + id + ": " + e.getMessage(), e);
        }
    }

    private String currentCondition() {
        return "(" + fenceColumn + " < ? OR (" + fenceColumn + " = ? AND " + ownerColumn + " = ?))";
    }

    private FencedResult<Integer> execute(Connection connection, Object id, Fence fence, String sql,
            Object... parameters) {
        Objects.requireNonNull(connection, "connection");
        Objects.requireNonNull(fence, "fence");
        try (PreparedStatement update = connection.prepareStatement(sql)) {
            int index = 1;
            for (Object parameter : parameters) {
                update.setObject(index++, parameter);
            }
            update.setLong(index++, fence.token());
            update.setString(index++, fence.owner());
            update.setObject(index++, id);
            update.setLong(index++, fence.token());
            update.setLong(index++, fence.token());
            update.setString(index, fence.owner());
            int rows = update.executeUpdate();
            if (rows > 0) {
                return FencedResult.accepted(rows, fence.token());
            }
        } catch (SQLException e) {
            throw new RedlockException("fenced update of " + table + " " + id + " failed: " + e.getMessage(), e);
        }
        return FencedResult.rejected(fence.token(), highestToken(connection, id));
    }

    private static String identifier(String what, String name) {
        if (name == null || !IDENTIFIER.matcher(name).matches()) {
            throw new RedlockConfigException(what + " must be a plain SQL identifier, was '" + name + "'");
        }
        return name;
    }
}
