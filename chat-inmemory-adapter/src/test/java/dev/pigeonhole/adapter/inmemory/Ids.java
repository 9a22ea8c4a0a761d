package dev.pigeonhole.adapter.inmemory;

import dev.pigeonhole.domain.model.ChatId;
import dev.pigeonhole.domain.model.LockName;
import dev.pigeonhole.domain.model.UserId;

import java.util.UUID;

/** Random ids, so that no test depends on another's leftovers or on a lucky name. */
final class Ids {

    private Ids() {
    }

    static UserId user() {
        return UserId.of("user-" + UUID.randomUUID());
    }

    static ChatId chat() {
        return ChatId.of("chat-" + UUID.randomUUID());
    }

    static LockName lock() {
        return LockName.of("lock-" + UUID.randomUUID());
    }
}
