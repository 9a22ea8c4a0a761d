package dev.pigeonhole.domain.model;

/** A group chat's id, chosen by its creator or assigned by the store. */
public record ChatId(String value) implements Comparable<ChatId> {

    public ChatId {
        Identifiers.check("chat id", value);
    }

    public static ChatId of(String value) {
        return new ChatId(value);
    }

    @Override
    public int compareTo(ChatId other) {
        return value.compareTo(other.value);
    }

    @Override
    public String toString() {
        return value;
    }
}
