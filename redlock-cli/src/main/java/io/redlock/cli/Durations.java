package io.redlock.cli;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine;

/** Parses {@code 500ms}, {@code 30s}, {@code 2m}, {@code 1h} (or ISO-8601 such as {@code PT30S}). */
final class Durations implements CommandLine.ITypeConverter<Duration> {

    private static final Pattern SIMPLE = Pattern.compile("(\\d+)(ms|s|m|h)");

    @Override
    public Duration convert(String value) {
        return parse(value);
    }

    static Duration parse(String value) {
        String text = value.trim();
        Matcher m = SIMPLE.matcher(text);
        if (m.matches()) {
            long amount = Long.parseLong(m.group(1));
            return switch (m.group(2)) {
                case "ms" -> Duration.ofMillis(amount);
                case "s" -> Duration.ofSeconds(amount);
                case "m" -> Duration.ofMinutes(amount);
                default -> Duration.ofHours(amount);
            };
        }
        try {
            return Duration.parse(text);
        } catch (DateTimeParseException e) {
            throw new CommandLine.TypeConversionException(
                    "'" + value + "' is not a duration: use e.g. 500ms, 30s, 2m or 1h");
        }
    }

    static String format(Duration duration) {
        long ms = duration.toMillis();
        if (ms % 3_600_000 == 0 && ms > 0) {
            return ms / 3_600_000 + "h";
        }
        if (ms % 60_000 == 0 && ms > 0) {
            return ms / 60_000 + "m";
        }
        if (ms % 1_000 == 0) {
            return ms / 1_000 + "s";
        }
        return ms + "ms";
    }
}
