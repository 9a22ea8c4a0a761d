package dev.pigeonhole.benchmarks.cli;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine;

/**
 * Every duration option of the command-line tools, read one way: ISO-8601 ({@code PT30S}) as
 * {@link Duration#parse} takes it, a number with a unit ({@code 500ms}, {@code 30s}, {@code 2m},
 * {@code 1h}), or a bare number of seconds ({@code 10}, {@code 2.5}), which is what run.sh passes
 * and what people type.
 */
public final class DurationConverter implements CommandLine.ITypeConverter<Duration> {

    private static final Pattern AMOUNT = Pattern.compile("(\\d+(?:\\.\\d+)?|\\.\\d+)\\s*(ms|s|m|h)?");

    @Override
    public Duration convert(String value) {
        return parse(value);
    }

    /** The duration {@code value} names; IllegalArgumentException, with an example, when it names none. */
    public static Duration parse(String value) {
        String text = value.trim().toLowerCase(Locale.ROOT);
        if (text.startsWith("p")) {
            try {
                return Duration.parse(text.toUpperCase(Locale.ROOT));
            } catch (DateTimeParseException e) {
                throw notADuration(value);
            }
        }
        Matcher m = AMOUNT.matcher(text);
        if (!m.matches()) {
            throw notADuration(value);
        }
        double amount = Double.parseDouble(m.group(1));
        long nanosPerUnit = switch (m.group(2) == null ? "s" : m.group(2)) {
            case "ms" -> 1_000_000L;
            case "m" -> 60_000_000_000L;
            case "h" -> 3_600_000_000_000L;
            default -> 1_000_000_000L;
        };
        return Duration.ofNanos(Math.round(amount * nanosPerUnit));
    }

    private static IllegalArgumentException notADuration(String value) {
        return new IllegalArgumentException("not a duration (e.g. 30s, 500ms, 2m or PT30S): " + value);
    }
}
