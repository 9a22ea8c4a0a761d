package dev.pigeonhole.domain.model;

/** The name of a piece of work that must run on one instance at a time. */
public record LockName(String value) {

    public LockName {
        Identifiers.check("lock name", value);
    }

    public static LockName of(String value) {
        return new LockName(value);
    }

    @Override
    public String toString() {
        return value;
    }
}
