package io.redlock.fencing;

import io.redlock.RedlockConfigException;
import java.util.regex.Pattern;

/**
 * The names {@link FencedJdbc} writes into SQL: the table, its key column and the three fencing columns, each checked
 * to be a plain identifier (nothing can be injected through them), and the one condition every fenced statement
 * shares: the row's fence is below the token, or equal to it and held by the same lease.
 */
record FenceColumns(String table, String id, String fence, String owner, String deleted) {

    private static final Pattern IDENTIFIER = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*(\\.[A-Za-z_][A-Za-z0-9_]*)?");
    private static final Pattern COLUMN = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

    FenceColumns {
        check(IDENTIFIER, "table", table);
        check(COLUMN, "id column", id);
        check(COLUMN, "fence column", fence);
        check(COLUMN, "owner column", owner);
        check(COLUMN, "deleted column", deleted);
    }

    /** A column of the caller's (an upsert's value), checked like ours and not one of ours. */
    String dataColumn(String column) {
        check(COLUMN, "column", column);
        if (column.equalsIgnoreCase(id) || column.equalsIgnoreCase(fence) || column.equalsIgnoreCase(owner)
                || column.equalsIgnoreCase(deleted)) {
            throw new RedlockConfigException("column '" + column + "' is the key or a fencing column: FencedJdbc "
                    + "writes it itself");
        }
        return column;
    }

    /**
     * The fence check, the one rule of every fenced statement: {@code current.fence < token OR (current.fence = token
     * AND current.owner = owner)}, with the row's columns prefixed by {@code current} and the token and owner as
     * given ({@code ?} placeholders, or the columns of the proposed row).
     */
    String current(String current, String token, String leaseOwner) {
        return "(" + current + fence + " < " + token + " OR (" + current + fence + " = " + token + " AND " + current
                + owner + " = " + leaseOwner + "))";
    }

    private static void check(Pattern pattern, String what, String name) {
        if (name == null || !pattern.matcher(name).matches()) {
            throw new RedlockConfigException(what + " must be a plain SQL identifier, was '" + name + "'");
        }
    }
}
