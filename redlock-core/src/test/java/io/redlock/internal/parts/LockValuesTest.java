package io.redlock.internal.parts;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Base64;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class LockValuesTest {

    private final LockValues values = new LockValues();

    @Test
    void valueIsTwentyRandomBytesInBase64Url() {
        String value = values.next();
        assertThat(value).hasSize(27).matches("[A-Za-z0-9_-]+");
        assertThat(Base64.getUrlDecoder().decode(value)).hasSize(20);
    }

    @Test
    void valuesAreUniqueAcrossManyAcquisitions() {
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < 100_000; i++) {
            seen.add(values.next());
        }
        assertThat(seen).hasSize(100_000);
    }
}
