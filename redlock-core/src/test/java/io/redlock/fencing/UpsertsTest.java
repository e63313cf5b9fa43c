package io.redlock.fencing;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The fenced insert-or-update picked per database, and what each form must get right. */
class UpsertsTest {

    private final FenceColumns columns = new FenceColumns("account", "id", "fence", "fence_owner", "fence_deleted");

    @Test
    void theFormIsPickedFromTheProductName() {
        assertThat(Upserts.forProduct("PostgreSQL")).isEqualTo(Upserts.ON_CONFLICT);
        assertThat(Upserts.forProduct("MariaDB")).isEqualTo(Upserts.ON_DUPLICATE_KEY);
        assertThat(Upserts.forProduct("MySQL")).isEqualTo(Upserts.ON_DUPLICATE_KEY);
        assertThat(Upserts.forProduct("H2")).isEqualTo(Upserts.MERGE);
        assertThat(Upserts.forProduct(null)).isEqualTo(Upserts.MERGE);
    }

    @Test
    void postgresUpdatesOnConflictOnlyWhereTheFenceIsCurrent() {
        assertThat(Upserts.ON_CONFLICT.sql(columns, List.of("balance"))).isEqualTo(
                "INSERT INTO account AS cur (id, balance, fence, fence_owner, fence_deleted) VALUES (?, ?, ?, ?, FALSE)"
                + " ON CONFLICT (id) DO UPDATE SET balance = EXCLUDED.balance, fence = EXCLUDED.fence, fence_owner ="
                + " EXCLUDED.fence_owner, fence_deleted = FALSE WHERE (cur.fence < EXCLUDED.fence OR (cur.fence ="
                + " EXCLUDED.fence AND cur.fence_owner = EXCLUDED.fence_owner))");
    }

    @Test
    void mariaDbAssignsTheFenceLastSoEveryCheckSeesTheOldOne() {
        String sql = Upserts.ON_DUPLICATE_KEY.sql(columns, List.of("balance"));
        String update = sql.substring(sql.indexOf("ON DUPLICATE KEY UPDATE"));
        assertThat(update.indexOf("balance = IF(")).isLessThan(update.indexOf("fence_deleted = IF("));
        assertThat(update.indexOf("fence_deleted = IF(")).isLessThan(update.indexOf("fence_owner = IF("));
        assertThat(update.indexOf("fence_owner = IF(")).isLessThan(update.indexOf(", fence = IF("));
        assertThat(Upserts.ON_DUPLICATE_KEY.ambiguousCount()).isTrue();
        assertThat(Upserts.ON_CONFLICT.ambiguousCount()).isFalse();
    }
}
