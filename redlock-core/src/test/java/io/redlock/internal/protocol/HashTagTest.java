package io.redlock.internal.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lettuce.core.cluster.SlotHash;
import io.redlock.RedlockConfigException;
import java.util.List;
import org.junit.jupiter.api.Test;

/** With a cluster member, every key of one lock lands in the lock key's slot, and the lock key stays the resource. */
class HashTagTest {

    @Test
    void everyKeyOfALockSharesTheLockKeysSlotWhateverTheResourceLooksLike() {
        for (String key : List.of("orders:42", "{user:7}:profile", "a{b", "répertoire/é", "{a}b{c}")) {
            Keys keys = Keys.of(key, true);
            int slot = SlotHash.getSlot(key);
            assertThat(keys.lock()).isEqualTo(key);
            for (String other : List.of(keys.fence(), keys.waiters(), keys.deadlines())) {
                assertThat(SlotHash.getSlot(other)).as("%s of %s", other, key).isEqualTo(slot);
            }
        }
    }

    @Test
    void aKeyWithATagKeepsItAndOneWithoutGetsItsOwnBraces() {
        assertThat(Keys.of("{user:7}:profile", true).fence()).isEqualTo("{user:7}:profile:fence");
        assertThat(Keys.of("orders:42", true).fence()).isEqualTo("{orders:42}:fence");
        assertThat(Keys.of("orders:42", false).fence()).isEqualTo("orders:42:fence");
    }

    @Test
    void aKeyWithAClosingBraceButNoTagCannotBePlacedAndSaysHow() {
        for (String key : List.of("a}b", "{}b}", "x{}y", "{}x", "x{}{y}")) {
            assertThatThrownBy(() -> Keys.of(key, true)).as(key).isInstanceOf(RedlockConfigException.class)
                    .hasMessageContaining("needs a hash tag");
        }
        assertThat(Keys.of("a}b", false).fence()).isEqualTo("a}b:fence");
    }
}
