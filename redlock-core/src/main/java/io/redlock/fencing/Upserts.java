package io.redlock.fencing;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The fenced insert-or-update statement for a database, picked from the connection's product name. Every form takes
 * its parameters in the same order (key, the values, token, owner), inserts a live row with the fence when none has
 * the key, and otherwise applies the values only if the fence check passes ({@link FenceColumns#current}).
 */
enum Upserts {

    /** PostgreSQL: {@code INSERT ... ON CONFLICT (key) DO UPDATE SET ... WHERE <fence check>}; one row or none. */
    ON_CONFLICT,
    /**
     * MariaDB and MySQL: {@code INSERT ... ON DUPLICATE KEY UPDATE c = IF(<fence check>, VALUES(c), c), ...}, the
     * fence assigned last (the clause assigns left to right, so the check must see the old fence). Its row count does
     * not tell a refusal from an insert (1 for both when the driver counts found rows), so the row is read back.
     */
    ON_DUPLICATE_KEY,
    /** Others (H2): the standard {@code MERGE ... WHEN MATCHED AND <fence check> THEN UPDATE ... WHEN NOT MATCHED}. */
    MERGE;

    static Upserts forProduct(String productName) {
        String product = productName == null ? "" : productName.toLowerCase(Locale.ROOT);
        if (product.contains("postgres")) {
            return ON_CONFLICT;
        }
        if (product.contains("mariadb") || product.contains("mysql")) {
            return ON_DUPLICATE_KEY;
        }
        return MERGE;
    }

    /** Whether a row count below 2 leaves open whether the row was written, so the row must be read back. */
    boolean ambiguousCount() {
        return this == ON_DUPLICATE_KEY;
    }

    String sql(FenceColumns c, List<String> columns) {
        List<String> all = new ArrayList<>();
        all.add(c.id());
        all.addAll(columns);
        all.add(c.fence());
        all.add(c.owner());
        String names = String.join(", ", all) + ", " + c.deleted();
        String marks = all.stream().map(n -> "?").collect(Collectors.joining(", ")) + ", FALSE";
        return switch (this) {
            case ON_CONFLICT -> "INSERT INTO " + c.table() + " AS cur (" + names + ") VALUES (" + marks
                    + ") ON CONFLICT (" + c.id() + ") DO UPDATE SET "
                    + assignments(columns, n -> n + " = EXCLUDED." + n) + c.fence() + " = EXCLUDED." + c.fence() + ", "
                    + c.owner() + " = EXCLUDED." + c.owner() + ", " + c.deleted() + " = FALSE WHERE "
                    + c.current("cur.", "EXCLUDED." + c.fence(), "EXCLUDED." + c.owner());
            case ON_DUPLICATE_KEY -> {
                String check = c.current("", "VALUES(" + c.fence() + ")", "VALUES(" + c.owner() + ")");
                yield "INSERT INTO " + c.table() + " (" + names + ") VALUES (" + marks + ") ON DUPLICATE KEY UPDATE "
                        + assignments(columns, n -> n + " = IF(" + check + ", VALUES(" + n + "), " + n + ")")
                        + c.deleted() + " = IF(" + check + ", FALSE, " + c.deleted() + "), "
                        + c.owner() + " = IF(" + check + ", VALUES(" + c.owner() + "), " + c.owner() + "), "
                        + c.fence() + " = IF(" + check + ", VALUES(" + c.fence() + "), " + c.fence() + ")";
            }
            case MERGE -> "MERGE INTO " + c.table() + " AS cur USING (VALUES (" + all.stream().map(n -> "?")
                    .collect(Collectors.joining(", ")) + ")) AS src (" + String.join(", ", all) + ") ON cur." + c.id()
                    + " = src." + c.id() + " WHEN MATCHED AND " + c.current("cur.", "src." + c.fence(),
                            "src." + c.owner()) + " THEN UPDATE SET "
                    + assignments(columns, n -> n + " = src." + n) + c.fence() + " = src." + c.fence() + ", "
                    + c.owner() + " = src." + c.owner() + ", " + c.deleted() + " = FALSE WHEN NOT MATCHED THEN INSERT ("
                    + names + ") VALUES (" + all.stream().map(n -> "src." + n).collect(Collectors.joining(", "))
                    + ", FALSE)";
        };
    }

    private static String assignments(List<String> columns, java.util.function.UnaryOperator<String> each) {
        return columns.stream().map(each).map(a -> a + ", ").collect(Collectors.joining());
    }
}
