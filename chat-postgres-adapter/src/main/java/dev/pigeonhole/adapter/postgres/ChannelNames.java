package dev.pigeonhole.adapter.postgres;

import dev.pigeonhole.domain.model.live.Channel;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Objects;

/**
 * How a domain {@link Channel} becomes a PostgreSQL notification channel. NOTIFY is per
 * database, not per schema, so every name starts with the store's scope (its schema) and two
 * stores in one database never hear each other. A channel name is an identifier of at most 63
 * bytes; a longer one is replaced by a digest of it, and since every notification also carries
 * the domain channel's own name, a listener never has to turn a digest back into a name.
 *
 * <p>The names are quoted identifiers in {@code LISTEN "…"}; a domain channel holds letters,
 * digits and {@code . _ : -} only, and the scope is a plain schema name, so nothing in them needs
 * escaping.
 */
final class ChannelNames {

    /** NAMEDATALEN - 1: the longest identifier PostgreSQL keeps. */
    static final int MAX_BYTES = 63;

    private final String scope;

    ChannelNames(String scope) {
        this.scope = Objects.requireNonNull(scope, "scope");
    }

    /** Where events of {@code channel} are notified. */
    String of(Channel channel) {
        return bounded(scope + "/" + channel.name());
    }

    /**
     * Where every event is notified a second time, for pattern subscriptions, which a listener
     * matches itself ({@code *} is in no domain channel's name).
     */
    String everything() {
        return bounded(scope + "/*");
    }

    /** A channel only one listener uses, to wake it when it has work to do. */
    String wakeUp(String listener) {
        return bounded(scope + "/wake/" + listener);
    }

    private static String bounded(String name) {
        if (name.getBytes(StandardCharsets.UTF_8).length <= MAX_BYTES) {
            return name;
        }
        // '#' is in no schema or channel name, so a digest never collides with a name kept as it is.
        return "#" + HexFormat.of().formatHex(sha256(name), 0, 24);
    }

    private static byte[] sha256(String text) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }

    /** {@code name} as a quoted identifier, for LISTEN and UNLISTEN. */
    static String quoted(String name) {
        return "\"" + name.replace("\"", "\"\"") + "\"";
    }
}
