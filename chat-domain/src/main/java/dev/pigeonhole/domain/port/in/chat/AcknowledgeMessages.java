package dev.pigeonhole.domain.port.in.chat;

import dev.pigeonhole.domain.model.ChatId;
import dev.pigeonhole.domain.model.InvalidInputException;
import dev.pigeonhole.domain.model.UserId;

import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Tells the chat that a member has every message up to an id. Forward only: acknowledging an
 * older id than before changes nothing.
 */
public interface AcknowledgeMessages {

    void acknowledge(Command command);

    /**
     * Acknowledges in many chats at once, which is what a client does after fetching everything
     * pending: each chat is checked as a single acknowledge checks it, and one refusal refuses the
     * whole batch and changes nothing.
     */
    void acknowledge(Batch batch);

    record Command(UserId user, ChatId chat, long upTo) {

        public Command {
            Objects.requireNonNull(user, "user");
            Objects.requireNonNull(chat, "chat");
            if (upTo < 0) {
                throw new InvalidInputException("upTo must be 0 or more, not " + upTo);
            }
        }
    }

    /**
     * @param upTo how far to acknowledge in each chat; kept in {@link ChatId} order, the order in
     *             which every store checks them, so every store refuses the same bad entry
     */
    record Batch(UserId user, SortedMap<ChatId, Long> upTo) {

        /**
         * The most chats one batch may name. It bounds the work one request makes a store do in
         * one atomic step; a client in more chats acknowledges them in several batches.
         */
        public static final int MAX_CHATS = 1_000;

        public Batch(UserId user, Map<ChatId, Long> upTo) {
            this(user, new TreeMap<>(Objects.requireNonNull(upTo, "upTo")));
        }

        public Batch {
            Objects.requireNonNull(user, "user");
            Objects.requireNonNull(upTo, "upTo");
            if (upTo.isEmpty()) {
                throw new InvalidInputException("name at least one chat to acknowledge");
            }
            if (upTo.size() > MAX_CHATS) {
                throw new InvalidInputException("at most " + MAX_CHATS + " chats may be acknowledged at once, not "
                        + upTo.size());
            }
            upTo.forEach((chat, up) -> {
                if (Objects.requireNonNull(up, "upTo") < 0) {
                    throw new InvalidInputException("upTo must be 0 or more, not " + up + " (chat " + chat + ")");
                }
            });
            // In ChatId's natural order, whatever order the map given kept.
            TreeMap<ChatId, Long> natural = new TreeMap<>();
            natural.putAll(upTo);
            upTo = Collections.unmodifiableSortedMap(natural);
        }
    }
}
