package dev.pigeonhole.app;

import dev.pigeonhole.domain.model.InvalidInputException;
import dev.pigeonhole.domain.model.limits.RateLimit;
import picocli.CommandLine;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads a {@code --rate-*} option: "20/5s", "10/1m", "30/250ms", "10/1h", or "none", the way a
 * {@link RateLimit} writes itself. The syntax is the command line's; what a limit may be (a burst
 * of at least 1, no faster than a token a millisecond) is the domain's, and its refusal is
 * passed on in its own words.
 */
final class RateLimitOption implements CommandLine.ITypeConverter<RateLimit> {

    private static final Pattern WRITTEN = Pattern.compile("([^/]+)/(\\d+)(ms|s|m|h)");

    @Override
    public RateLimit convert(String value) {
        if (value.equals("none")) {
            return RateLimit.NONE;
        }
        Matcher written = WRITTEN.matcher(value);
        if (value.indexOf('/') < 1) {
            throw new CommandLine.TypeConversionException("a rate limit is written <count>/<period>, as 20/5s or 10/1m,"
                    + " or none; not '" + value + "'");
        }
        if (!written.matches()) {
            throw new CommandLine.TypeConversionException("a rate limit's period is a whole number of ms, s, m or h,"
                    + " as 5s; not '" + value.substring(value.indexOf('/') + 1) + "'");
        }
        int burst;
        try {
            burst = Integer.parseInt(written.group(1));
        } catch (NumberFormatException e) {
            throw new CommandLine.TypeConversionException("a rate limit's count must be a whole number, not '"
                    + written.group(1) + "'");
        }
        try {
            return new RateLimit(burst, period(Long.parseLong(written.group(2)), written.group(3)));
        } catch (NumberFormatException | ArithmeticException e) {
            throw new CommandLine.TypeConversionException("a rate limit's period of " + written.group(2)
                    + written.group(3) + " is too long");
        } catch (InvalidInputException e) {
            throw new CommandLine.TypeConversionException(e.getMessage());
        }
    }

    private static Duration period(long amount, String unit) {
        return switch (unit) {
            case "ms" -> Duration.ofMillis(amount);
            case "s" -> Duration.ofSeconds(amount);
            case "m" -> Duration.ofMinutes(amount);
            default -> Duration.ofHours(amount);
        };
    }
}
