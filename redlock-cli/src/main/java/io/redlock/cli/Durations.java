package io.redlock.cli;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine;

/**
 * Parses durations given on the command line: {@code 500ms}, {@code 90s}, {@code 1m30s}, {@code 2h}, {@code 1h30m}
 * (hours, minutes, seconds, milliseconds, largest first, each at most once) or ISO-8601 such as {@code PT1M30S}.
 * Anything else — a typo, a negative value, a value too large for a millisecond count — is a
 * {@link CommandLine.TypeConversionException}, which picocli reports as a usage error (exit 64), naming the value.
 */
final class Durations implements CommandLine.ITypeConverter<Duration> {

    private static final Pattern UNITS = Pattern.compile("(?:(\\d+)h)?(?:(\\d+)m(?!s))?(?:(\\d+)s)?(?:(\\d+)ms)?");

    @Override
    public Duration convert(String value) {
        return parse(value);
    }

    static Duration parse(String value) {
        String text = value.trim();
        try {
            Duration duration = text.startsWith("P") || text.startsWith("p") || text.startsWith("-")
                    ? Duration.parse(text) : units(text);
            if (duration == null) {
                throw notADuration(value, "use e.g. 500ms, 90s, 1m30s, 2h or PT1M30S");
            }
            if (duration.isNegative()) {
                throw notADuration(value, "it must not be negative");
            }
            duration.toMillis(); // throws ArithmeticException when it does not fit in a millisecond count
            return duration;
        } catch (ArithmeticException | NumberFormatException e) {
            throw notADuration(value, "it is too large");
        } catch (DateTimeParseException e) {
            throw notADuration(value, "use e.g. 500ms, 90s, 1m30s, 2h or PT1M30S");
        }
    }

    /** {@code 1h30m}-style text, or null when it is not that. */
    private static Duration units(String text) {
        Matcher m = UNITS.matcher(text);
        if (text.isEmpty() || !m.matches()) {
            return null;
        }
        return Duration.ofHours(amount(m.group(1)))
                .plus(Duration.ofMinutes(amount(m.group(2))))
                .plus(Duration.ofSeconds(amount(m.group(3))))
                .plus(Duration.ofMillis(amount(m.group(4))));
    }

    private static long amount(String digits) {
        return digits == null ? 0 : Long.parseLong(digits);
    }

    private static CommandLine.TypeConversionException notADuration(String value, String why) {
        return new CommandLine.TypeConversionException("'" + value + "' is not a duration: " + why);
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
