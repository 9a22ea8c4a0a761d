package dev.pigeonhole.domain.model.live;

import dev.pigeonhole.domain.model.ChatId;
import dev.pigeonhole.domain.model.InvalidIdException;
import dev.pigeonhole.domain.model.UserId;

import java.util.Optional;
import java.util.regex.Pattern;

/**
 * A named stream of live events. The domain names three kinds: one per chat, one per user (what
 * concerns that user alone, such as its memberships) and one for presence.
 * How a name becomes a Redis channel (prefix, hash tag) is the adapter's business.
 */
public record Channel(String name) implements Topic {

    private static final String CHAT_PREFIX = "chat:";
    private static final String USER_PREFIX = "user:";
    private static final Pattern ALLOWED = Pattern.compile("[A-Za-z0-9._:-]{1,128}");

    public static final Channel PRESENCE = new Channel("presence");

    public Channel {
        if (name == null || !ALLOWED.matcher(name).matches()) {
            throw new InvalidIdException("channel name '" + name
                    + "' is not valid: use 1 to 128 characters from A-Z, a-z, 0-9, '.', '_', ':' and '-'");
        }
    }

    public static Channel ofChat(ChatId chat) {
        return new Channel(CHAT_PREFIX + chat.value());
    }

    /**
     * What concerns one user alone. Only that user's feeds listen, so news of strangers never takes
     * room in anyone else's queue.
     */
    public static Channel ofUser(UserId user) {
        return new Channel(USER_PREFIX + user.value());
    }

    /** The chat this channel carries, if it is a chat channel. */
    public Optional<ChatId> chat() {
        return name.startsWith(CHAT_PREFIX)
                ? Optional.of(ChatId.of(name.substring(CHAT_PREFIX.length())))
                : Optional.empty();
    }

    /** The user this channel carries news for, if it is a user channel. */
    public Optional<UserId> user() {
        return name.startsWith(USER_PREFIX)
                ? Optional.of(UserId.of(name.substring(USER_PREFIX.length())))
                : Optional.empty();
    }

    @Override
    public String toString() {
        return name;
    }
}
