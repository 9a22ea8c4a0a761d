package dev.pigeonhole.domain.port.in.chat;

import dev.pigeonhole.domain.model.InvalidInputException;
import dev.pigeonhole.domain.model.UserId;
import dev.pigeonhole.domain.model.chat.PendingChat;

import java.util.List;
import java.util.Objects;

/**
 * Everything a user has not acknowledged, across all of its chats at once. Fetching moves no
 * cursor: the client acknowledges once it really has the messages ({@link AcknowledgeMessages}),
 * so a crash in between means receiving them again rather than losing them.
 */
public interface FetchPending {

    List<PendingChat> pending(Query query);

    /** @param perChatLimit the most messages returned per chat; the unread count is never capped */
    record Query(UserId user, int perChatLimit) {

        public static final int DEFAULT_PER_CHAT_LIMIT = 1_000;
        public static final int MAX_PER_CHAT_LIMIT = 10_000;

        public Query {
            Objects.requireNonNull(user, "user");
            if (perChatLimit < 1 || perChatLimit > MAX_PER_CHAT_LIMIT) {
                throw new InvalidInputException("perChatLimit must be between 1 and " + MAX_PER_CHAT_LIMIT
                        + ", not " + perChatLimit);
            }
        }

        public Query(UserId user) {
            this(user, DEFAULT_PER_CHAT_LIMIT);
        }
    }
}
