package dev.pigeonhole.domain.model;

/** A user's name. Valid by construction, so nothing downstream checks a raw string again. */
public record UserId(String value) implements Comparable<UserId> {

    public UserId {
        Identifiers.check("user id", value);
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
