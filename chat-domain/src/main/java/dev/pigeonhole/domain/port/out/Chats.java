package dev.pigeonhole.domain.port.out;

import dev.pigeonhole.domain.model.Channel;
import dev.pigeonhole.domain.model.ChatAlreadyExistsException;
import dev.pigeonhole.domain.model.ChatFullException;
import dev.pigeonhole.domain.model.ChatId;
import dev.pigeonhole.domain.model.ChatSummary;
import dev.pigeonhole.domain.model.IdempotencyKey;
import dev.pigeonhole.domain.model.InvalidInputException;
import dev.pigeonhole.domain.model.LiveEvent;
import dev.pigeonhole.domain.model.Message;
import dev.pigeonhole.domain.model.MessagePage;
import dev.pigeonhole.domain.model.NotAMemberException;
import dev.pigeonhole.domain.model.PendingChat;
import dev.pigeonhole.domain.model.UnknownChatException;
import dev.pigeonhole.domain.model.UserId;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Group chats: members, their cursors and the messages (Redis in Action 6.5.2, with its races
 * fixed). Every method is atomic on its own. The contracts in chat-port-tck
 * ({@code ChatMessagesContract}, {@code ChatMembershipContract}, {@code ChatRacesContract},
 * {@code ChatsModelContract}) check each promise below against every implementation.
 *
 * <p>A member's <em>cursor</em> is the highest message id it has acknowledged. Ids are 1, 2, 3…
 * per chat with no gaps, so "unread" is simply {@code lastId - cursor}.
 *
 * <p>Callers pass arguments the {@code port.in} commands have already checked (ids are valid
 * values, counts positive); an adapter may reject anything else with
 * {@link InvalidInputException}. Any method may throw
 * {@link dev.pigeonhole.domain.model.StoreUnavailableException}.
 *
 * <p>"First available id" means the oldest id the chat still holds, or {@code lastId + 1} when it
 * holds none (everything was acknowledged by every member, or trimmed by retention).
 */
public interface Chats {

    /**
     * A chat id from the store's counter, never handed out by it before and not taken by an
     * existing chat. A creator may still claim it with a chosen id before it is opened, in which
     * case {@link #open} says so and the caller asks again.
     */
    ChatId newChatId();

    /**
     * Opens a chat with {@code members} (the creator is added if missing) and sends its first
     * message, in one step, so no one ever sees a chat without it. Every member starts at cursor
     * 0; the creator then moves to 1 as any sender does, and the first message is announced as
     * {@link #send} announces.
     *
     * @throws ChatFullException          if there are more members than the limit allows (checked
     *                                    first: it is wrong whatever the store holds)
     * @throws ChatAlreadyExistsException if {@code chat} exists
     */
    Message open(ChatId chat, UserId creator, Set<UserId> members, String body, Instant at);

    /**
     * Appends a message with the chat's next id. Ids are unique and gap-free under any number of
     * concurrent senders, and the message is readable once this returns. The sender's cursor
     * moves to the new id only if it was at the id before it, so a sender's own message is never
     * unread and nothing from others is skipped. Keeps at most the retention limit of messages.
     * Announces {@link LiveEvent.MessagePosted} on {@link Channel#ofChat(ChatId)} through the
     * {@link Channels} of the same store.
     *
     * <p>With a key, a send the same sender made to this chat under the same key, less than
     * {@link IdempotencyKey#WINDOW} before {@code at}, is not made again: nothing is stored or
     * announced, no cursor moves, and the message stored then is returned as it was, even if
     * retention has dropped it since. The key is forgotten with the chat when its last member
     * leaves.
     *
     * @throws UnknownChatException  if the chat does not exist
     * @throws NotAMemberException   if {@code sender} is not a member
     * @throws InvalidInputException if the key was used for a different body
     */
    Message send(ChatId chat, UserId sender, String body, Instant at, Optional<IdempotencyKey> key);

    /** A send without an idempotency key: each call stores a message. */
    default Message send(ChatId chat, UserId sender, String body, Instant at) {
        return send(chat, sender, body, at, Optional.empty());
    }

    /**
     * For each of the user's chats, in {@link ChatId}'s order, the messages above its cursor,
     * oldest first, at most
     * {@code perChatLimit} of them, with the full unread count and the gap flag. Moves no cursor.
     * A user in no chat gets an empty list.
     */
    List<PendingChat> pending(UserId user, int perChatLimit);

    /**
     * Moves the user's cursor forward to {@code upTo}; never backwards, so two devices
     * acknowledging at once cannot rewind it. Then drops the messages every member has
     * acknowledged.
     *
     * @throws UnknownChatException  if the chat does not exist
     * @throws NotAMemberException   if the user is not (or no longer) a member; nothing is re-added
     *                               (checked before {@code upTo})
     * @throws InvalidInputException if {@code upTo} is above the chat's last id
     */
    void acknowledge(UserId user, ChatId chat, long upTo);

    /**
     * Up to {@code limit} messages with ids above {@code after}, oldest first, for a member.
     *
     * @throws UnknownChatException if the chat does not exist
     * @throws NotAMemberException  if {@code reader} is not a member
     */
    MessagePage messagesAfter(UserId reader, ChatId chat, long after, int limit);

    /**
     * Adds the user at the chat's latest id, so it starts with nothing unread. A user who is
     * already a member keeps its cursor, so a repeated join skips nothing and is never refused.
     *
     * @throws UnknownChatException if the chat does not exist
     * @throws ChatFullException    if the user is not a member and the chat is at its member limit
     */
    void join(ChatId chat, UserId user);

    /**
     * Removes the member, then drops the messages every remaining member has acknowledged (the
     * leaver may have been holding them back). The last member leaving deletes the chat
     * entirely; no concurrent send, join or acknowledge can bring it back, restart its ids or
     * leave anything of it behind. Once it is gone its id is free: opening it again starts a new
     * chat at id 1.
     *
     * @throws UnknownChatException if the chat does not exist
     * @throws NotAMemberException  if the user is not a member
     */
    void leave(ChatId chat, UserId user);

    /** The user's chats with members, cursor and last id, in {@link ChatId}'s (string) order. */
    List<ChatSummary> chatsOf(UserId user);
}
