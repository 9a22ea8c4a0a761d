package dev.pigeonhole.adapter.redis;

import dev.pigeonhole.domain.model.ChatAlreadyExistsException;
import dev.pigeonhole.domain.model.ChatFullException;
import dev.pigeonhole.domain.model.ChatId;
import dev.pigeonhole.domain.model.DomainException;
import dev.pigeonhole.domain.model.NotAMemberException;
import dev.pigeonhole.domain.model.UnknownChatException;
import dev.pigeonhole.domain.model.UserId;
import dev.pigeonhole.domain.model.chat.Chat;
import dev.pigeonhole.domain.model.limits.RateLimit;
import dev.pigeonhole.domain.model.limits.RateLimits;

import java.time.Duration;
import java.util.List;

/**
 * What a chat function refused: each of the aggregate's refusals as common.lua's {@code refuse()}
 * answers it, carrying what {@link Chat} puts into its exception. Decoded once from the reply
 * ({@link #of}), worded once as the domain's exception ({@link #exception}): the one place a
 * function's refusal meets the domain's.
 */
sealed interface ChatRefusal {

    /** The chat does not exist, or no longer does, or is private and the one asking not in it. */
    record NoChat() implements ChatRefusal {
    }

    record NotMember(UserId user) implements ChatRefusal {
    }

    record ChatFull(int maxMembers) implements ChatRefusal {
    }

    record Exists() implements ChatRefusal {
    }

    record TooManyMembers(int maxMembers, int count) implements ChatRefusal {
    }

    record BeyondLast(long upTo, long lastId) implements ChatRefusal {
    }

    record RateLimited(Duration retryAfter) implements ChatRefusal {
    }

    /**
     * A book client holds the chat's lock ({@code lock:chat:<chat>}): not the aggregate's refusal
     * but the book layout's, which the caller waits out.
     */
    record Locked() implements ChatRefusal {
    }

    /** The refusal a function answered with: its word, then what came with it. */
    static ChatRefusal of(String word, List<Object> values, RedisFunction function) {
        return switch (word) {
            case "NO_CHAT" -> new NoChat();
            case "NOT_MEMBER" -> new NotMember(UserId.of(text(values, 0)));
            case "CHAT_FULL" -> new ChatFull(Math.toIntExact(number(values, 0)));
            case "EXISTS" -> new Exists();
            case "TOO_MANY_MEMBERS" -> new TooManyMembers(Math.toIntExact(number(values, 0)),
                    Math.toIntExact(number(values, 1)));
            case "BEYOND_LAST" -> new BeyondLast(number(values, 0), number(values, 1));
            case "RATE_LIMITED" -> new RateLimited(Duration.ofMillis(number(values, 0)));
            case "LOCKED" -> new Locked();
            default -> throw new IllegalStateException(function.name() + " answered " + word + " " + values);
        };
    }

    /**
     * The domain's exception for this refusal in {@code chat}, as {@link Chat} throws it.
     *
     * @param rate the send's limit, which a refusal of its rate names
     */
    default DomainException exception(ChatId chat, RateLimit rate) {
        return switch (this) {
            case NoChat noChat -> new UnknownChatException(chat);
            case NotMember notMember -> new NotAMemberException(notMember.user(), chat);
            case ChatFull full -> new ChatFullException(chat, full.maxMembers());
            case Exists exists -> new ChatAlreadyExistsException(chat);
            case TooManyMembers tooMany -> Chat.tooManyMembers(tooMany.maxMembers(), tooMany.count());
            case BeyondLast beyond -> Chat.beyondLastId(chat, beyond.upTo(), beyond.lastId());
            case RateLimited limited -> rate.refusal(RateLimits.Write.SEND, limited.retryAfter());
            case Locked locked -> throw new IllegalStateException("the book's lock on chat " + chat
                    + " is waited out, never answered");
        };
    }

    private static long number(List<Object> values, int index) {
        return ((Number) values.get(index)).longValue();
    }

    private static String text(List<Object> values, int index) {
        return (String) values.get(index);
    }
}
