package io.redlock.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine;

/** Durations on the command line: the short forms, ISO-8601, and every bad value a usage error. */
class DurationsTest {

    @ParameterizedTest
    @CsvSource({
        "500ms, 500",
        "90s, 90000",
        "1m30s, 90000",
        "2h, 7200000",
        "1h30m, 5400000",
        "2m, 120000",
        "1h2m3s4ms, 3723004",
        "0s, 0",
        "' 45s ', 45000",
        "PT1M30S, 90000",
        "PT1.5S, 1500",
        "P1D, 86400000",
        "pt2h, 7200000",
    })
    void readsShortFormsAndIso8601(String text, long millis) {
        assertThat(Durations.parse(text)).isEqualTo(Duration.ofMillis(millis));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "soon", "3q", "90", "s", "1.5s", "30s1m", "1m1m", "1 m", "-5s", "PT-5S", "PT",
        "1d", "5sec"})
    void refusesWhatIsNotADuration(String text) {
        assertThatThrownBy(() -> Durations.parse(text))
                .isInstanceOf(CommandLine.TypeConversionException.class)
                .hasMessageContaining("'" + text + "' is not a duration");
    }

    @ParameterizedTest
    @ValueSource(strings = {"99999999999999999999s", "9223372036854775807h", "2562047788015216h",
        "106751991167301d", "PT9223372036854775807S", "P106751991167301D", "5124095576030431h1m"})
    void refusesWhatOverflowsAsTooLarge(String text) {
        assertThatThrownBy(() -> Durations.parse(text))
                .isInstanceOf(CommandLine.TypeConversionException.class)
                .hasMessageContaining("'" + text + "' is not a duration");
    }

    @ParameterizedTest
    @ValueSource(strings = {"99999999999999999999s", "PT9223372036854775807S", "1m1m", "PT-1S"})
    void aBadOrOverflowingDurationIsAUsageErrorWithoutAStackTrace(String text) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cli = RedlockCli.commandLine();
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        int code = cli.execute("acquire", "job", "--ttl", text, "--nodes", "redis://127.0.0.1:1");
        assertThat(code).isEqualTo(ExitCodes.USAGE);
        assertThat(err.toString()).contains("'" + text + "' is not a duration").doesNotContain("\tat ")
                .doesNotContain("Exception");
    }

    @ParameterizedTest
    @CsvSource({"1500, 1500ms", "120000, 2m", "7200000, 2h", "90000, 90s", "0, 0s"})
    void formatsTheShortestExactForm(long millis, String text) {
        assertThat(Durations.format(Duration.ofMillis(millis))).isEqualTo(text);
        assertThat(Durations.parse(text)).isEqualTo(Duration.ofMillis(millis));
    }
}
