package io.redlock.internal.time;

import java.math.BigDecimal;
import java.time.Duration;

/**
 * A duration as messages show it, the way users write one: {@code 0s}, {@code 250ms}, {@code 4.75s}, {@code 0.5ms},
 * {@code 2m}, {@code 366d}: the largest unit that is exact for whole seconds.
 */
public final class DurationText {

    private static final BigDecimal THOUSAND = BigDecimal.valueOf(1000);
    private static final BigDecimal MILLION = BigDecimal.valueOf(1_000_000);

    private DurationText() {
    }

    public static String of(Duration duration) {
        if (duration.isNegative()) {
            return "-" + of(duration.negated());
        }
        BigDecimal nanos = new BigDecimal(duration.getSeconds()).multiply(THOUSAND).multiply(MILLION)
                .add(BigDecimal.valueOf(duration.getNano()));
        BigDecimal millis = nanos.divide(MILLION);
        if (millis.compareTo(THOUSAND) < 0 && millis.signum() != 0) {
            return plain(millis) + "ms";
        }
        BigDecimal seconds = millis.divide(THOUSAND);
        if (seconds.signum() == 0 || seconds.stripTrailingZeros().scale() > 0) {
            return plain(seconds) + "s";
        }
        long whole = seconds.longValueExact();
        if (whole % 86_400 == 0) {
            return whole / 86_400 + "d";
        }
        if (whole % 3_600 == 0) {
            return whole / 3_600 + "h";
        }
        return whole % 60 == 0 ? whole / 60 + "m" : whole + "s";
    }

    private static String plain(BigDecimal value) {
        return value.stripTrailingZeros().toPlainString();
    }
}
