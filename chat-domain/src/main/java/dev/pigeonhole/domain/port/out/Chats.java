package dev.pigeonhole.domain.port.out;

import dev.pigeonhole.domain.model.ChatAlreadyExistsException;
import dev.pigeonhole.domain.model.ChatFullException;
import dev.pigeonhole.domain.model.ChatId;
import dev.pigeonhole.domain.model.InvalidInputException;
import dev.pigeonhole.domain.model.NotAMemberException;
import dev.pigeonhole.domain.model.RateLimitedException;
import dev.pigeonhole.domain.model.UnknownChatException;
import dev.pigeonhole.domain.model.UserId;
import dev.pigeonhole.domain.model.chat.Access;
import dev.pigeonhole.domain.model.chat.Chat;
import dev.pigeonhole.domain.model.chat.ChatChange;
import dev.pigeonhole.domain.model.chat.ChatSummary;
import dev.pigeonhole.domain.model.chat.IdempotencyKey;
import dev.pigeonhole.domain.model.chat.Joined;
import dev.pigeonhole.domain.model.chat.Left;
import dev.pigeonhole.domain.model.chat.Message;
import dev.pigeonhole.domain.model.chat.MessagePage;
import dev.pigeonhole.domain.model.chat.Opened;
import dev.pigeonhole.domain.model.chat.PendingChat;
import dev.pigeonhole.domain.model.chat.Sent;
import dev.pigeonhole.domain.model.limits.Limits;
import dev.pigeonhole.domain.model.limits.RateLimit;
import dev.pigeonhole.domain.model.live.Channel;
import dev.pigeonhole.domain.model.live.LiveEvent;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;

/**
 * Group chats: where each chat's state and messages are kept. The rules are the domain's
 * {@link Chat} aggregate's; a store keeps chats and applies them, each method atomically on its
 * own: the in-memory store runs the aggregate under a lock per chat, the Redis store runs a Lua
 * transliteration of it in one script. The contracts in chat-port-tck check every promise below
 * against every store, and run random operations against the aggregate and each store side by
 * side ({@code ChatsDifferentialContract}).
 *
 * <p>Announcing follows {@link ChatChange}: a store announces a message
 * ({@link LiveEvent#announcing(ChatChange)} of its {@link Sent}) on {@link Channel#ofChat(ChatId)},
 * through the {@link Channels} of the same store, inside the step that stores it; the other
 * changes ({@link Opened}, {@link Joined}, {@link Left}) come back to the caller, which announces
 * them.
 *
 * <p>To a user outside it, a private chat that exists answers every method exactly as a chat that
 * does not: {@link UnknownChatException}. Only an open chat, which anyone may join, tells a
 * non-member {@link NotAMemberException}. So where a method below says "does not exist", a
 * private chat the caller is not in is included.
 *
 * <p>Callers pass what the {@code port.in} commands have already checked (ids are valid values,
 * counts positive, ids not negative); a store does not check it again. Any method may throw
 * {@link dev.pigeonhole.domain.model.StoreUnavailableException}.
 */
public interface Chats {

    /**
     * An id for a chat its creator did not name: {@link ChatId#random()}, which no one can guess.
     * A store whose layout must count chats as another program does (Redis's book layout) hands
     * out its counter instead. A creator may claim the id with a chosen one before it is opened,
     * in which case {@link #open} says so and the caller asks again.
     */
    default ChatId newChatId() {
        return ChatId.random();
    }

    /**
     * {@link Chat#open}: opens a chat with {@code members} (the creator is added if missing) and
     * its first message, announced as {@link #send} announces.
     *
     * @throws InvalidInputException      if there are more members than the limit allows (checked
     *                                    first: it is wrong whatever the store holds)
     * @throws ChatAlreadyExistsException if {@code chat} exists
     */
    Opened open(ChatId chat, UserId creator, Set<UserId> members, Access access, String body, Instant at);

    /** A private chat, which is what a chat is unless its creator opens it to all. */
    default Opened open(ChatId chat, UserId creator, Set<UserId> members, String body, Instant at) {
        return open(chat, creator, members, Access.PRIVATE, body, at);
    }

    /**
     * {@link Chat#send}: appends a message with the chat's next id and announces it. Ids are
     * unique and gap-free under any number of concurrent senders and instances, and the message
     * is readable once this returns.
     *
     * <p>With a key, a send the same sender made to this chat under the same key, less than
     * {@link IdempotencyKey#WINDOW} before {@code at}, is not made again: nothing is stored or
     * announced, no cursor moves, and the message stored then is answered, rebuilt from its id,
     * its time and this call's body, even if retention has dropped it since. The chat remembers at
     * most {@link Limits#maxRetained()} keys, the soonest to close forgotten first, and forgets
     * them all with the chat when its last member leaves.
     *
     * <p>A send that is not a repeat takes a token from the sender's bucket in this chat under
     * {@code rate}, at the time {@code at}, in the same atomic step.
     *
     * @throws UnknownChatException  if the chat does not exist, or is private and {@code sender}
     *                               not in it
     * @throws NotAMemberException   if {@code sender} is not a member of an open chat
     * @throws InvalidInputException if the key was used for a different body
     * @throws RateLimitedException  if the sender's bucket in this chat is empty; nothing changed
     */
    Message send(ChatId chat, UserId sender, String body, Instant at, Optional<IdempotencyKey> key, RateLimit rate);

    /** A send with no limit on its rate. */
    default Message send(ChatId chat, UserId sender, String body, Instant at, Optional<IdempotencyKey> key) {
        return send(chat, sender, body, at, key, RateLimit.NONE);
    }

    /** A send without an idempotency key or a limit on its rate: each call stores a message. */
    default Message send(ChatId chat, UserId sender, String body, Instant at) {
        return send(chat, sender, body, at, Optional.empty(), RateLimit.NONE);
    }

    /**
     * {@link Chat#pending} for each of the user's chats, in {@link ChatId}'s order, at most
     * {@code perChatLimit} messages of each. Moves no cursor. A user in no chat gets an empty
     * list. The budget across chats is the caller's ({@link dev.pigeonhole.domain.model.limits.PendingBudget}).
     */
    List<PendingChat> pending(UserId user, int perChatLimit);

    /**
     * {@link Chat#acknowledge}: moves the user's cursor forward to {@code upTo}, never back, then
     * drops what every member has acknowledged.
     *
     * @throws UnknownChatException  if the chat does not exist, or is private and the user not
     *                               (or no longer) in it; nothing is re-added
     * @throws NotAMemberException   if the user is not (or no longer) a member of an open chat;
     *                               nothing is re-added (checked before {@code upTo})
     * @throws InvalidInputException if {@code upTo} is above the chat's last id
     */
    void acknowledge(UserId user, ChatId chat, long upTo);

    /**
     * {@link Chat#acknowledgeAll}: {@link #acknowledge} in each chat as one atomic step; every
     * chat is checked, in {@link ChatId} order, before any cursor moves, so the first refusal in
     * that order is the one thrown and nothing changes.
     *
     * @param upTo at least one chat; the caller bounds how many
     * @throws UnknownChatException  if a chat does not exist, or is private and the user not in it
     * @throws NotAMemberException   if the user is not a member of an open chat
     * @throws InvalidInputException if an {@code upTo} is above its chat's last id
     */
    void acknowledge(UserId user, SortedMap<ChatId, Long> upTo);

    /**
     * {@link Chat#read}: up to {@code limit} messages with ids above {@code after}, oldest first,
     * for a member, and none at or below the member's join point.
     *
     * @throws UnknownChatException if the chat does not exist, or is private and {@code reader}
     *                              not in it
     * @throws NotAMemberException  if {@code reader} is not a member of an open chat
     */
    MessagePage read(UserId reader, ChatId chat, long after, int limit);

    /**
     * {@link Chat#join}: {@code by} brings {@code user} in at the chat's latest id, its cursor and
     * join point; a member already in keeps both and is never refused for it.
     *
     * @throws UnknownChatException if the chat does not exist, or is private and {@code by} not
     *                              in it, whether it brings itself or someone else
     * @throws NotAMemberException  if {@code by} is someone else who is not a member of an open chat
     * @throws ChatFullException    if the user is not a member and the chat is at its member limit
     */
    Joined join(ChatId chat, UserId by, UserId user);

    /**
     * {@link Chat#leave}: removes the member. The last member leaving deletes the chat entirely;
     * no concurrent send, join or acknowledge can bring it back, restart its ids or leave
     * anything of it behind. Once it is gone its id is free: opening it again starts a new chat
     * at id 1.
     *
     * @throws UnknownChatException if the chat does not exist, or is private and the user not in it
     * @throws NotAMemberException  if the user is not a member of an open chat
     */
    Left leave(ChatId chat, UserId user);

    /** {@link Chat#summaryFor} for each of the user's chats, in {@link ChatId}'s (string) order. */
    List<ChatSummary> chatsOf(UserId user);

    /**
     * {@link Chat#summaryFor} of one chat: what an invitation to it records (its last id, its
     * members), read by a member.
     *
     * @throws UnknownChatException if the chat does not exist
     * @throws NotAMemberException  if {@code member} is not a member
     */
    ChatSummary summaryOf(UserId member, ChatId chat);

    /**
     * The chats the user is a member of, in {@link ChatId}'s order, without reading any of them:
     * how many there are bounds its joins, and whether two users share one decides what they may
     * do to each other (docs/DESIGN.md §3, "Consent"). A store that keeps each user's chats in an index of its
     * own beside the chats' members answers from the index.
     */
    List<ChatId> chatIdsOf(UserId user);

    /**
     * {@link Chat#accept}: the invitee of {@code inviter} comes in at {@code joinPoint}, the chat's
     * last id when it was invited, as its cursor and join point (at the last id if that is lower:
     * the chat was opened again since); a member already in keeps both and is never refused for it.
     *
     * @throws UnknownChatException if the chat does not exist
     * @throws NotAMemberException  if {@code inviter} is no longer a member
     * @throws ChatFullException    if the invitee is not a member and the chat is at its member limit
     */
    Joined accept(ChatId chat, UserId inviter, UserId invitee, long joinPoint);
}
