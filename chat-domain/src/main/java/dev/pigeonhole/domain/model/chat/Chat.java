package dev.pigeonhole.domain.model.chat;

import dev.pigeonhole.domain.model.ChatFullException;
import dev.pigeonhole.domain.model.ChatId;
import dev.pigeonhole.domain.model.InvalidInputException;
import dev.pigeonhole.domain.model.MillisecondClock;
import dev.pigeonhole.domain.model.NotAMemberException;
import dev.pigeonhole.domain.model.RateLimitedException;
import dev.pigeonhole.domain.model.UnknownChatException;
import dev.pigeonhole.domain.model.UserId;
import dev.pigeonhole.domain.model.limits.Limits;
import dev.pigeonhole.domain.model.limits.RateLimit;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * One group chat: the aggregate in which every rule of Redis in Action 6.5.2, with its races
 * fixed, is written once. It holds the members and their cursors ({@link Members}), the ids
 * handed out and the window still held ({@link MessageIds}), the sends remembered under
 * idempotency keys ({@link KeyedSends}), each member's send bucket ({@link SendBuckets}), and the
 * limits; it holds no message text, which its store keeps in a {@link MessageLog} beside it.
 *
 * <p>Each operation checks what it must in a fixed order, changes the chat, and answers with its
 * outcome and the events to announce ({@link ChatChange}). A store applies it under whatever makes
 * one operation atomic (a lock per chat, a locked row). Redis cannot run Java inside its atomic
 * step, so its Lua scripts transliterate these methods step by step under the same names
 * ({@code checkMember} is {@code check_member}); the contract suite runs random operations against
 * this class and every store side by side, and any difference fails.
 *
 * <p>A chat is {@link Access#PRIVATE private} unless opened {@link Access#OPEN open}: into a private
 * chat only a member brings someone, and to anyone else it does not exist. Whoever comes in later than the opening reads only what is
 * sent after it came in (its join point), so adding someone never hands it the history.
 *
 * <p>A member's cursor is the highest id it has acknowledged. What every member has read, and
 * whatever is older than the retention limit allows, may be dropped; what is held is therefore
 * always one run of ids ({@link MessageIds}).
 *
 * <p>Times are to the millisecond, as every store keeps them ({@link MillisecondClock}).
 *
 * <p>Not thread-safe: a store runs one operation on a chat at a time.
 *
 * <p>Each operation and the steps it checks, in their order, are here, as {@code chat.lua}
 * transliterates them; a step that concerns one part alone is that part's, under the same name.
 */
public final class Chat {

    private final ChatId id;
    private final Limits limits;
    private final Members members = new Members();
    private final KeyedSends keyedSends = new KeyedSends();
    private final SendBuckets sendBuckets = new SendBuckets();
    private final MessageIds ids = new MessageIds();
    private Access access = Access.PRIVATE;
    private boolean opened;
    private boolean deleted;

    /** A chat about to be {@link #open opened}; until then it has no members and takes no operation. */
    public Chat(ChatId id, Limits limits) {
        this.id = Objects.requireNonNull(id, "id");
        this.limits = Objects.requireNonNull(limits, "limits");
    }

    public ChatId id() {
        return id;
    }

    /**
     * A chat as a store kept it ({@link #snapshot}), opened. A store may leave out what the
     * operation about to run never reads, and then must not write that part back: a send needs
     * only its sender among the members, a read or pending only its reader, and the chat list
     * nothing but the members; a send without a key needs no keyed sends, a send without a rate
     * limit no buckets, and nothing but a send needs either.
     */
    public static Chat restore(ChatSnapshot kept, Limits limits) {
        Chat chat = new Chat(kept.id(), limits);
        chat.opened = true;
        chat.deleted = kept.deleted();
        chat.access = kept.access();
        chat.ids.restore(kept.lastId(), kept.firstAvailableId());
        kept.members().forEach(chat.members::restore);
        kept.keyedSends().forEach(chat.keyedSends::restore);
        kept.sendBuckets().forEach(chat.sendBuckets::refillAt);
        return chat;
    }

    /** Everything this chat holds, as values, for a store that writes back only what changed. */
    public ChatSnapshot snapshot() {
        return new ChatSnapshot(id, access, ids.last(), ids.firstAvailable(), deleted, members.snapshot(),
                keyedSends.snapshot(), sendBuckets.snapshot());
    }

    /**
     * Opens the chat with the creator and {@code others}, every one of them joining at 0, so they
     * read it from its first message, which the creator sends in the same step: no one ever sees
     * the chat without it.
     *
     * @throws InvalidInputException if there would be more members than the limit allows: that is
     *                               wrong whatever a store holds, so it is checked before anything
     */
    public Opened open(UserId creator, Set<UserId> others, Access access, String body, Instant at) {
        if (opened) {
            throw new IllegalStateException("chat " + id + " is open already");
        }
        Set<UserId> everyone = new TreeSet<>(others);
        everyone.add(Objects.requireNonNull(creator, "creator"));
        checkMemberLimit(everyone.size());
        opened = true;
        this.access = Objects.requireNonNull(access, "access");
        everyone.forEach(member -> members.add(member, 0));
        Sent first = send(creator, body, at, Optional.empty(), RateLimit.NONE);
        return new Opened(id, first, everyone);
    }

    /**
     * Appends a message with the next id. The sender's cursor moves to it only if the sender had
     * seen everything before it, so its own message is never unread and nothing from others is
     * ever skipped. With a key the same sender used here before, inside the key's window, nothing
     * is stored: the answer is the message stored then, rebuilt from what the chat remembers of
     * it and this send's own body. Otherwise the sender's bucket in this chat gives a token, at
     * the send's own time, or the send is refused.
     *
     * @throws UnknownChatException  if the chat was deleted, or is private and the sender not in it
     * @throws NotAMemberException   if the sender is not a member of an open chat
     * @throws InvalidInputException if the key was used for a different body
     * @throws RateLimitedException  if the sender's bucket in this chat is empty; nothing changed
     */
    public Sent send(UserId sender, String body, Instant at, Optional<IdempotencyKey> key, RateLimit rate) {
        MillisecondClock.requireMillis(at, "a send's time");
        long cursor = checkMember(sender);
        if (key.isPresent()) {
            keyedSends.forgetClosed(at);
            Optional<RememberedSend> earlier = keyedSends.sentBefore(sender, key.get(), at);
            if (earlier.isPresent()) {
                return earlier.get().replay(id, key.get(), sender, body);
            }
        }
        sendBuckets.takeSendToken(sender, rate, at);
        Message message = new Message(ids.next(), at, sender, body);
        members.moveSenderCursor(sender, cursor, message.id());
        ids.trimRetained(limits.maxRetained());
        key.ifPresent(sentUnder -> keyedSends.remember(sender, sentUnder, RememberedSend.of(message),
                limits.maxRetained()));
        return new Sent(id, message, false);
    }

    /** A send with no limit on its rate, as the first message of a chat is (opening has its own). */
    public Sent send(UserId sender, String body, Instant at, Optional<IdempotencyKey> key) {
        return send(sender, body, at, key, RateLimit.NONE);
    }

    /**
     * Moves the member's cursor forward to {@code upTo}, never back, so two devices acknowledging
     * at once cannot rewind it; then drops what every member has now seen.
     *
     * @return the member's cursor afterwards
     * @throws UnknownChatException  if the chat was deleted, or is private and the user not in it
     * @throws NotAMemberException   if the user is not (or no longer) a member of an open chat:
     *                               nothing re-adds it
     * @throws InvalidInputException if {@code upTo} is above the last id
     */
    public long acknowledge(UserId member, long upTo) {
        return checkAcknowledge(member, upTo).move();
    }

    /**
     * Acknowledges in several of a member's chats as one step: every chat is checked as
     * {@link #acknowledge} checks it, in {@link ChatId} order, before any cursor moves, so one
     * refusal (the first in that order) changes nothing. Each check hands over the cursor it
     * read, so moving needs nothing read again. The store holds all of them still meanwhile, as it
     * holds one chat for one acknowledge.
     *
     * @param upTo  how far to acknowledge in each chat
     * @param chats each of those chats as the store holds it, or empty for one it does not hold
     * @throws UnknownChatException  for a chat that does not exist (or was deleted), or a private
     *                               one the member is not in
     * @throws NotAMemberException   for an open chat the member is not in
     * @throws InvalidInputException for an {@code upTo} above its chat's last id
     */
    public static void acknowledgeAll(UserId member, SortedMap<ChatId, Long> upTo,
                                      Function<ChatId, Optional<Chat>> chats) {
        List<Acknowledgement> checked = new ArrayList<>(upTo.size());
        upTo.forEach((id, up) -> checked.add(chats.apply(id).orElseThrow(() -> new UnknownChatException(id))
                .checkAcknowledge(member, up)));
        checked.forEach(Acknowledgement::move);
    }

    /**
     * Brings {@code user} in at the last id, as its cursor and its join point: it starts with
     * nothing unread and reads nothing sent before. A member brings anyone in; a user comes in by
     * itself ({@code by} is {@code user}) only to an open chat. Someone already in keeps its cursor
     * and join point, and is never refused for it, so a repeated join skips nothing and widens
     * nothing.
     *
     * @throws UnknownChatException if the chat was deleted, or is private and {@code by} not in it
     *                              (whether it brings itself or someone else)
     * @throws NotAMemberException  if {@code by} is someone else who is not a member of an open chat
     * @throws ChatFullException    if the chat is at its member limit
     */
    public Joined join(UserId by, UserId user) {
        checkMayBringIn(by, user);
        return bringIn(user, ids.last());
    }

    /**
     * Brings in the user whom {@code inviter} invited when the last id was {@code joinPoint}, at
     * that id, as its cursor and join point: the invitation's own message, and what was said while
     * it waited, is unread; nothing from before. A chat opened again since under the same id has
     * ids below that point, and then the user comes in at its last id. The invitation is only as
     * good as its inviter: one who left can no longer bring anyone in.
     *
     * @throws UnknownChatException if the chat was deleted
     * @throws NotAMemberException  if the inviter is no longer a member
     * @throws ChatFullException    if the chat is at its member limit
     */
    public Joined accept(UserId inviter, UserId user, long joinPoint) {
        checkMember(inviter);
        return bringIn(user, Math.min(joinPoint, ids.last()));
    }

    /**
     * Removes the member. The last member leaving deletes the chat: from then on every operation
     * answers as if it never existed, so nothing can bring it back. Otherwise drops what the
     * remaining members have all seen, which the leaver may have been holding back.
     *
     * @throws UnknownChatException if the chat was deleted, or is private and the user not in it
     * @throws NotAMemberException  if the user is not a member of an open chat
     */
    public Left leave(UserId member) {
        checkMember(member);
        members.remove(member);
        if (members.isEmpty()) {
            deleted = true;
            return new Left(id, member, true);
        }
        trimAcknowledged();
        return new Left(id, member, false);
    }

    /** Up to {@code limit} messages above the member's cursor, with its unread count and gap. Changes nothing. */
    public PendingChat pending(UserId member, int limit, MessageLog log) {
        long cursor = checkMember(member);
        return historyFor(member).pending(id, cursor, log.after(cursor, limit));
    }

    /**
     * Up to {@code limit} messages above {@code after}, for a member, but none at or below its
     * join point: asking for older ones reads from the join point on. Changes nothing.
     */
    public MessagePage read(UserId reader, long after, int limit, MessageLog log) {
        checkMember(reader);
        long from = readFrom(reader, after);
        return historyFor(reader).page(from, log.after(from, limit));
    }

    /** The chat as the member sees it in its chat list. */
    public ChatSummary summaryFor(UserId member) {
        long cursor = checkMember(member);
        return new ChatSummary(id, members.all(), access, cursor, ids.last());
    }

    /**
     * The refusal of an open with more members than the limit allows, worded once for every store
     * (a store whose script makes the check answers with this too).
     */
    public static InvalidInputException tooManyMembers(int maxMembers, int count) {
        return new InvalidInputException("a chat may have at most " + maxMembers + " members; this one would have "
                + count);
    }

    /** The refusal of an acknowledgement past the last id, worded once for every store. */
    public static InvalidInputException beyondLastId(ChatId chat, long upTo, long lastId) {
        return new InvalidInputException("cannot acknowledge up to " + upTo + " in chat " + chat
                + ": its ids run from 1 to its last id, " + lastId);
    }

    /** The ids handed out and the ones still held: a store drops every message below the window. */
    public HistoryWindow history() {
        return ids.window();
    }

    /** The history as the member may read it: nothing at or below its join point. */
    public HistoryWindow historyFor(UserId member) {
        return history().joinedAt(members.joinPointOf(member));
    }

    public boolean isMember(UserId user) {
        return !deleted && members.contains(user);
    }

    // ------------------------------------------------------------ the steps, named as the scripts name them

    private void checkExists() {
        if (!opened || deleted) {
            throw new UnknownChatException(id);
        }
    }

    /**
     * The member's cursor; how every operation but join checks who is asking. A chat before its
     * opening or after its last member left has no members, so a cursor found means it exists.
     * To anyone outside it a private chat answers as one that does not exist: its id is a name
     * anyone may guess, and what a stranger learns must not depend on whether the guess was right.
     */
    private long checkMember(UserId user) {
        OptionalLong cursor = members.cursorOf(user);
        if (cursor.isEmpty()) {
            checkExists();
            checkVisibleTo(user);
            throw new NotAMemberException(user, id);
        }
        return cursor.getAsLong();
    }

    /** A member brings anyone in; anyone brings itself into an open chat. */
    private void checkMayBringIn(UserId by, UserId user) {
        if (!by.equals(user)) {
            checkMember(by);
            return;
        }
        checkExists();
        checkVisibleTo(user);
    }

    /** Only an open chat admits to a non-member that it exists. */
    private void checkVisibleTo(UserId user) {
        if (access == Access.PRIVATE && !members.contains(user)) {
            throw new UnknownChatException(id);
        }
    }

    /** Someone already in keeps its cursor and join point, and is never refused for it. */
    private Joined bringIn(UserId user, long joinPoint) {
        if (members.contains(user)) {
            return new Joined(id, user, false);
        }
        checkRoom();
        members.add(user, joinPoint);
        return new Joined(id, user, true);
    }

    /** Where a read starts: never at or below the reader's join point. */
    private long readFrom(UserId reader, long after) {
        return Math.max(after, members.joinPointOf(reader));
    }

    private void checkMemberLimit(int count) {
        if (count > limits.maxMembers()) {
            throw tooManyMembers(limits.maxMembers(), count);
        }
    }

    private void checkRoom() {
        if (members.count() >= limits.maxMembers()) {
            throw new ChatFullException(id, limits.maxMembers());
        }
    }

    /**
     * What an acknowledgement checks before it moves anything: the member's cursor, then upTo. It
     * answers with what the move needs, so that moving reads nothing again.
     */
    private Acknowledgement checkAcknowledge(UserId member, long upTo) {
        long cursor = checkMember(member);
        ids.checkUpTo(id, upTo);
        return new Acknowledgement(this, member, cursor, upTo);
    }

    /** An acknowledgement checked: the member, its cursor as the check read it, and how far to go. */
    private record Acknowledgement(Chat chat, UserId member, long cursor, long upTo) {

        /** Forward only, then drops what every member has now seen; answers the cursor afterwards. */
        long move() {
            if (upTo <= cursor) {
                return cursor;
            }
            chat.members.moveCursor(member, upTo);
            chat.trimAcknowledged();
            return upTo;
        }
    }

    /** Drops what every member has acknowledged: the lowest cursor bounds it. */
    private void trimAcknowledged() {
        ids.trimAcknowledged(members.lowestCursor());
    }
}
