package dev.pigeonhole.domain.port.in.chat;

import dev.pigeonhole.domain.model.ChatId;
import dev.pigeonhole.domain.model.InvalidInputException;
import dev.pigeonhole.domain.model.UserId;
import dev.pigeonhole.domain.model.chat.MessagePage;

import java.util.Objects;

/** A member pages through one chat's history, independently of its cursor. */
public interface ReadMessages {

    MessagePage read(Query query);

    /** @param after the id to start after: 0 for the oldest message still kept */
    record Query(UserId reader, ChatId chat, long after, int limit) {

        public static final int MAX_LIMIT = 1_000;

        public Query {
            Objects.requireNonNull(reader, "reader");
            Objects.requireNonNull(chat, "chat");
            if (after < 0) {
                throw new InvalidInputException("after must be 0 or more, not " + after);
            }
            if (limit < 1 || limit > MAX_LIMIT) {
                throw new InvalidInputException("limit must be between 1 and " + MAX_LIMIT + ", not " + limit);
            }
        }
    }
}
