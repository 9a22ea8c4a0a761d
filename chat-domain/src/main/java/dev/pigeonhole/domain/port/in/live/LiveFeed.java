package dev.pigeonhole.domain.port.in.live;

import dev.pigeonhole.domain.model.ChatId;
import dev.pigeonhole.domain.model.InvalidInputException;
import dev.pigeonhole.domain.model.live.LiveEvent;
import dev.pigeonhole.domain.model.live.LiveSignal;

import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * One client's live feed, ready to be turned into frames by any transport. It hands out, in this
 * order: what is pending in the user's chats as {@link LiveEvent.MessagePosted} events, oldest
 * first in each chat; then live events of those chats and of presence. It follows the chats the
 * user joins or opens while connected, through any server, catching up on each, and stops
 * following the ones the user leaves; each such change of the user's own is handed out too, as a
 * {@link LiveEvent.MembershipChanged} ahead of the chat's catch-up, so a client learns of a chat
 * it was added to before, or without, any message in it. No message is handed out twice:
 * repeats are dropped by id, per chat. A message delivered to the user's own mailbox meanwhile is
 * handed out as a {@link LiveEvent.DirectMessageDelivered}; the mailbox itself is read by pulling
 * (it has no catch-up here), and nothing of another user's mailbox is ever handed out.
 *
 * <p>Signals wait in a bounded queue; a client that does not keep up is cut off with
 * {@link LiveSignal.CloseReason#SLOW} rather than allowed to grow memory, and catches up when it
 * subscribes again. A store that does not answer never ends a feed: a catch-up it could not read
 * becomes a {@link LiveSignal.Resync}, and the client pulls once the store is back.
 *
 * <p>One thread reads a feed: {@link #next} and {@link #received} are not for concurrent callers.
 */
public interface LiveFeed extends AutoCloseable {

    /**
     * The next signal, waiting up to {@code timeout}; empty if none came. After a
     * {@link LiveSignal.Closed} signal the feed is over and every later call returns it again.
     */
    Optional<LiveSignal> next(Duration timeout) throws InterruptedException;

    /**
     * What this feed has handed out, for resuming it on a new connection without a repeat: the
     * highest message id per chat, of the {@link Received#MAX_CHATS} chats most recently heard from.
     */
    Received received();

    /**
     * Adds a chat's events from now on, without catching up on it. The feed follows the chats the
     * user joins by itself; this is for a caller that learned of a membership some other way.
     *
     * @throws dev.pigeonhole.domain.model.NotAMemberException if the user is not a member: a feed
     *                                                         must not be a way around reading
     */
    void follow(ChatId chat);

    /**
     * For a transport that cannot carry the whole of a catch-up at once (its client reads slower
     * than the catch-up is handed out): if the signal handed out last belongs to a catch-up, drops
     * the rest of that catch-up, hands out a {@link LiveSignal.Resync} next, so the client pulls
     * what it lacks, and answers true. Answers false, changing nothing, for a live signal: a client
     * that cannot keep up with those is slow.
     */
    boolean resyncInsteadOfCatchUp();

    boolean isOpen();

    @Override
    void close();

    /**
     * Messages a client already holds from an earlier feed: the highest id it received in each
     * chat, oldest news first. A feed subscribed with it sends none of them again.
     *
     * <p>Bounded, so that a transport can hand it to the client and take it back (as an SSE event
     * id) whatever the number of the user's chats: past {@link #MAX_CHATS} only the chats most
     * recently heard from are kept, and a chat left out is caught up from its cursor, which may
     * repeat messages the client has but never skips one.
     */
    record Received(Map<ChatId, Long> highestIds) {

        public static final int MAX_CHATS = 16;
        public static final Received NOTHING = new Received(Map.of());

        public Received {
            Objects.requireNonNull(highestIds, "highestIds");
            if (highestIds.size() > MAX_CHATS) {
                throw new InvalidInputException("at most " + MAX_CHATS + " chats can be resumed, not "
                        + highestIds.size());
            }
            highestIds.forEach((chat, id) -> {
                Objects.requireNonNull(chat, "chat");
                if (id == null || id < 1) {
                    throw new InvalidInputException("a message id must be at least 1, not " + id + " (chat " + chat + ")");
                }
            });
            highestIds = Collections.unmodifiableMap(new LinkedHashMap<>(highestIds));
        }
    }
}
