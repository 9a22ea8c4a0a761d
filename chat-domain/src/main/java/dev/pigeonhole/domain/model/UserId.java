package dev.pigeonhole.domain.model;

import java.util.Locale;

/**
 * A user's name. Valid by construction, so nothing downstream checks a raw string again.
 *
 * <p>Names are case-insensitive: {@code Casey}, {@code CASEY} and {@code casey} are one person,
 * and lower case is the one spelling every store and every comparison sees. It is made here, once,
 * so no adapter can key a mailbox or a membership under a second spelling. The check comes first,
 * so a refusal quotes what the caller sent; the allowed characters are ASCII, so lower-casing never
 * changes a name's length or lets through what the check refused.
 */
public record UserId(String value) implements Comparable<UserId> {

    public UserId {
        Identifiers.check("user id", value);
        value = value.toLowerCase(Locale.ROOT);
    }

    public static UserId of(String value) {
        return new UserId(value);
    }

    @Override
    public int compareTo(UserId other) {
        return value.compareTo(other.value);
    }

    @Override
    public String toString() {
        return value;
    }
}
