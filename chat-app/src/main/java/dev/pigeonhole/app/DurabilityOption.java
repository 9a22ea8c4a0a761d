package dev.pigeonhole.app;

import dev.pigeonhole.adapter.redis.Durability;
import picocli.CommandLine;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Reads {@code --redis-durability}: "none", or "replicas=N" with an optional ",timeout=MS", the
 * way a {@link Durability} writes itself. The command line bounds what an operator may ask for
 * (a handful of replicas; a timeout short of a minute, one second unless given); whether the
 * timeout fits the Redis command timeout is {@link RedisConfig}'s to say, which knows both.
 */
final class DurabilityOption implements CommandLine.ITypeConverter<Durability> {

    /** More than any deployment runs: a larger count is a typing mistake, not a wish. */
    static final int MAX_REPLICAS = 16;

    /** Long enough for a replica across a data centre's network; short enough to answer a person. */
    static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(1);

    private static final Pattern WHOLE = Pattern.compile("\\d{1,9}");

    private static final String WRITTEN = "write none, or replicas=N[,timeout=MS] with N from 1 to " + MAX_REPLICAS
            + " and MS from 1 to " + Durability.MAX_TIMEOUT.toMillis() + " (" + DEFAULT_TIMEOUT.toMillis()
            + " if left out)";

    @Override
    public Durability convert(String value) {
        if (value.equals("none")) {
            return Durability.NONE;
        }
        Map<String, String> given = new LinkedHashMap<>();
        for (String part : value.split(",", -1)) {
            int equals = part.indexOf('=');
            String key = equals < 0 ? part : part.substring(0, equals);
            if (!key.equals("replicas") && !key.equals("timeout")) {
                throw refused("'" + key + "' is not replicas or timeout");
            }
            if (equals < 0) {
                throw refused(key + " has no value");
            }
            if (given.putIfAbsent(key, part.substring(equals + 1)) != null) {
                throw refused(key + " is given twice");
            }
        }
        if (!given.containsKey("replicas")) {
            throw refused("replicas is missing");
        }
        int replicas = (int) whole("replicas", given.get("replicas"), MAX_REPLICAS);
        long timeout = given.containsKey("timeout")
                ? whole("timeout", given.get("timeout"), Durability.MAX_TIMEOUT.toMillis())
                : DEFAULT_TIMEOUT.toMillis();
        return new Durability(replicas, Duration.ofMillis(timeout));
    }

    private static long whole(String key, String value, long most) {
        long number = WHOLE.matcher(value).matches() ? Long.parseLong(value) : -1;
        if (number < 1 || number > most) {
            throw refused(key + " is '" + value + "'");
        }
        return number;
    }

    private static CommandLine.TypeConversionException refused(String why) {
        return new CommandLine.TypeConversionException(why + "; " + WRITTEN);
    }
}
