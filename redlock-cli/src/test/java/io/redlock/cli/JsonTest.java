package io.redlock.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The JSON lines scripts parse. */
class JsonTest {

    @Test
    void writesMapsInOrderWithNumbersAndStrings() {
        Map<String, Object> lease = new LinkedHashMap<>();
        lease.put("resource", "orders:42");
        lease.put("value", "abc_-1");
        lease.put("token", 17L);
        lease.put("validity_ms", 29_970);
        lease.put("held", true);
        lease.put("none", null);
        assertThat(Json.of(lease)).isEqualTo(
                "{\"resource\":\"orders:42\",\"value\":\"abc_-1\",\"token\":17,\"validity_ms\":29970,\"held\":true,"
                        + "\"none\":null}");
    }

    @Test
    void writesRecordsByComponentAndEnumsByName() {
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("checks", List.of(DoctorFinding.warn("127.0.0.1:7000", "persistence", "no fsync")));
        doc.put("verdict", "WARN");
        assertThat(Json.of(doc)).isEqualTo("{\"checks\":[{\"node\":\"127.0.0.1:7000\",\"check\":\"persistence\","
                + "\"status\":\"WARN\",\"detail\":\"no fsync\"}],\"verdict\":\"WARN\"}");
    }

    @Test
    void escapesQuotesBackslashesAndControlCharacters() {
        assertThat(Json.of(Arrays.asList("a\"b\\c\nd\te\u0001", 'x'))).isEqualTo("[\"a\\\"b\\\\c\\nd\\te\\u0001\",\"x\"]");
    }

    @Test
    void refusesWhatItCannotWrite() {
        assertThatThrownBy(() -> Json.of(new Object())).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("java.lang.Object");
    }
}
