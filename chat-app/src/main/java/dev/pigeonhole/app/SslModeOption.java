package dev.pigeonhole.app;

import dev.pigeonhole.adapter.postgres.PostgresSsl;
import picocli.CommandLine;

/** Reads {@code --postgres-sslmode} by libpq's names ({@code verify-full}), as the adapter parses them, refusal and all. */
final class SslModeOption implements CommandLine.ITypeConverter<PostgresSsl.Mode> {

    @Override
    public PostgresSsl.Mode convert(String value) {
        try {
            return PostgresSsl.Mode.parse(value);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.TypeConversionException(e.getMessage());
        }
    }
}
