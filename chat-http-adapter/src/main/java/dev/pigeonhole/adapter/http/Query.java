package dev.pigeonhole.adapter.http;

import io.javalin.http.Context;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Optional;

/** Query parameters read strictly: a value that is there but unreadable is an error, not a default. */
final class Query {

    private Query() {
    }

    static long longParam(Context ctx, String name, long fallback) {
        String raw = ctx.queryParam(name);
        if (raw == null) {
            return fallback;
        }
        try {
            return Long.parseLong(raw.strip());
        } catch (NumberFormatException e) {
            throw Problem.badQuery("'" + name + "' must be a whole number, not '" + shorten(raw) + "'");
        }
    }

    static int intParam(Context ctx, String name, int fallback) {
        long value = longParam(ctx, name, fallback);
        if (value < Integer.MIN_VALUE || value > Integer.MAX_VALUE) {
            throw Problem.badQuery("'" + name + "' is out of range: " + value);
        }
        return (int) value;
    }

    static Optional<Duration> durationParam(Context ctx, String name) {
        String raw = ctx.queryParam(name);
        if (raw == null) {
            return Optional.empty();
        }
        try {
            return Optional.of(Duration.parse(raw.strip()));
        } catch (DateTimeParseException e) {
            throw Problem.badQuery("'" + name + "' must be an ISO-8601 duration such as PT15M, not '" + shorten(raw) + "'");
        }
    }

    private static String shorten(String raw) {
        String shown = raw.length() > 40 ? raw.substring(0, 40) + "…" : raw;
        return shown.replaceAll("\\p{Cntrl}", "?");
    }
}
