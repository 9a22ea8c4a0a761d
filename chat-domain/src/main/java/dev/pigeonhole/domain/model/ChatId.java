package dev.pigeonhole.domain.model;

import java.security.SecureRandom;

/** A group chat's id, chosen by its creator or assigned by the store. */
public record ChatId(String value) implements Comparable<ChatId> {

    /** 22 characters of 62 carry 130 bits: no one finds a private chat by guessing its id. */
    static final int RANDOM_LENGTH = 22;
    private static final String BASE_62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
    private static final SecureRandom RANDOM = new SecureRandom();

    public ChatId {
        Identifiers.check("chat id", value);
    }

    public static ChatId of(String value) {
        return new ChatId(value);
    }

    /**
     * A new id no one can guess, for a chat whose creator did not name it. Ids that count up
     * would let anyone list every chat by counting, private or not.
     */
    public static ChatId random() {
        char[] id = new char[RANDOM_LENGTH];
        for (int i = 0; i < id.length; i++) {
            id[i] = BASE_62.charAt(RANDOM.nextInt(BASE_62.length()));
        }
        return new ChatId(new String(id));
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
