package dev.pigeonhole.app;

import dev.pigeonhole.domain.model.InvalidInputException;
import dev.pigeonhole.domain.model.RateLimit;
import picocli.CommandLine;

/** Reads a {@code --rate-*} option as {@link RateLimit#parse} does, and says what is wrong in its words. */
final class RateLimitOption implements CommandLine.ITypeConverter<RateLimit> {

    @Override
    public RateLimit convert(String value) {
        try {
            return RateLimit.parse(value);
        } catch (InvalidInputException e) {
            throw new CommandLine.TypeConversionException(e.getMessage());
        }
    }
}
