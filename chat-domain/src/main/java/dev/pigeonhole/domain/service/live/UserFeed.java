package dev.pigeonhole.domain.service.live;

import dev.pigeonhole.domain.model.chat.PendingChats;
import dev.pigeonhole.domain.model.ChatId;
import dev.pigeonhole.domain.model.NotAMemberException;
import dev.pigeonhole.domain.model.StoreUnavailableException;
import dev.pigeonhole.domain.model.UserId;
import dev.pigeonhole.domain.model.chat.ChatSummary;
import dev.pigeonhole.domain.model.chat.Message;
import dev.pigeonhole.domain.model.chat.PendingChat;
import dev.pigeonhole.domain.model.live.Channel;
import dev.pigeonhole.domain.model.live.LiveEvent;
import dev.pigeonhole.domain.model.live.LiveSignal;
import dev.pigeonhole.domain.model.live.Topic;
import dev.pigeonhole.domain.port.in.live.LiveFeed;
import dev.pigeonhole.domain.port.out.Chats;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Queue;
import java.util.Set;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/**
 * One user's {@link LiveFeed}: a {@link LocalSubscription} plus what turns topic events into a
 * user's view of its chats. Everything but {@link #follow} runs on the one thread that reads the
 * feed, so the catch-up, the membership changes and the repeat check need no lock, and the store
 * is never called from the multiplexer's delivery thread.
 *
 * <p>Its user's own membership changes and mailbox deliveries come on the user's channel; those of
 * the other members of its chats come on each chat's channel and keep its {@link PresenceFold} knowing whose presence
 * the client may hear of, which it hands out as one diff at most once a second.
 * <p>Its store reads wait their turn ({@link LiveCatchUps}), and none of them ends the feed when
 * the store does not answer: a catch-up that could not be read becomes a resync, and chats
 * followed are settled again on a later signal.
 */
final class UserFeed implements LiveFeed {

    private final UserId user;
    private final Chats chats;
    private final LiveCatchUps catchUps;
    private final LocalSubscription subscription;
    private final PresenceFold presence;
    private final Channel own;
    /** Handed out before anything from the subscription: catch-up messages, in order. */
    private final Queue<LiveSignal> caughtUp = new ArrayDeque<>();
    /** The highest message id handed out per chat, the chat heard from most recently last. */
    private final Map<ChatId, Long> highestIds = new LinkedHashMap<>();
    /** A resync came and the chats followed may be stale: settled against the store when it answers. */
    private boolean membershipsInDoubt;
    /** The chats followed from the start, caught up on the first read; null once that is done. */
    private Set<ChatId> toCatchUp;
    /** The signal handed out last came from {@link #caughtUp}. */
    private boolean lastFromCatchUp;

    /**
     * @param following the user's chats, already subscribed; null if the store did not say, and
     *                  then the feed starts with a resync and follows them once the store answers
     */
    UserFeed(UserId user, Chats chats, LiveCatchUps catchUps, LocalSubscription subscription, PresenceFold presence,
             Set<ChatId> following, Received received) {
        this.user = user;
        this.chats = chats;
        this.catchUps = catchUps;
        this.subscription = subscription;
        this.presence = presence;
        this.own = Channel.ofUser(user);
        this.highestIds.putAll(received.highestIds());
        if (following != null) {
            this.toCatchUp = Set.copyOf(following);
        } else {
            this.membershipsInDoubt = true;
            this.caughtUp.add(new LiveSignal.Resync());
        }
    }

    @Override
    public Optional<LiveSignal> next(Duration timeout) throws InterruptedException {
        if (toCatchUp != null) {
            // Whoever joined the user's chats before their channels were subscribed is in this read.
            knowCoMembers();
            // The subscription is in place already, so anything sent from here on is either in
            // the pending read below or queued behind it; repeats of both are dropped by id.
            catchUp(toCatchUp::contains, true);
            toCatchUp = null;
        }
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            Optional<LiveSignal.Presence> diff = subscription.isOpen() ? presence.takeIfDue() : Optional.empty();
            if (diff.isPresent()) {
                lastFromCatchUp = false;
                return Optional.of(diff.get());
            }
            LiveSignal signal = subscription.isOpen() ? caughtUp.poll() : null;
            boolean fromCatchUp = signal != null;
            if (signal == null) {
                long wait = Math.max(0, deadline - System.nanoTime());
                // A diff that is waiting wakes the reader when it falls due, not at the caller's deadline.
                long untilDiff = presence.dueIn().map(Duration::toNanos).orElse(Long.MAX_VALUE);
                Optional<LiveSignal> arrived = subscription.next(Duration.ofNanos(Math.min(wait, untilDiff)));
                if (arrived.isEmpty()) {
                    if (deadline - System.nanoTime() > 0) {
                        continue;
                    }
                    // Quiet, and still unsure what to follow (the store was away): try again
                    // now, since no signal may come to try it on.
                    if (membershipsInDoubt && settleMemberships()) {
                        lastFromCatchUp = false;
                        return Optional.of(new LiveSignal.Resync());
                    }
                    return Optional.empty();
                }
                signal = arrived.get();
            }
            if (handOut(signal, fromCatchUp)) {
                lastFromCatchUp = fromCatchUp;
                return Optional.of(signal);
            }
        }
    }

    @Override
    public boolean resyncInsteadOfCatchUp() {
        if (!lastFromCatchUp) {
            return false;
        }
        caughtUp.clear();
        caughtUp.add(new LiveSignal.Resync());
        lastFromCatchUp = false;
        return true;
    }

    @Override
    public Received received() {
        Map<ChatId, Long> latest = new LinkedHashMap<>();
        highestIds.entrySet().stream()
                .skip(Math.max(0, highestIds.size() - Received.MAX_CHATS))
                .forEach(heard -> latest.put(heard.getKey(), heard.getValue()));
        return new Received(latest);
    }

    @Override
    public void follow(ChatId chat) {
        if (!isMember(chat)) {
            throw new NotAMemberException(user, chat);
        }
        subscription.add(Channel.ofChat(chat));
    }

    @Override
    public boolean isOpen() {
        return subscription.isOpen();
    }

    @Override
    public void close() {
        subscription.close();
    }

    /**
     * False for what the feed keeps to itself: a repeat, someone else's membership change, one of
     * the user's own that no longer holds, or word that a presence diff is waiting.
     */
    private boolean handOut(LiveSignal signal, boolean fromCatchUp) throws InterruptedException {
        if (signal instanceof LiveSignal.Resync && !fromCatchUp) {
            // A membership change may be among what was missed: follow what the store says now.
            membershipsInDoubt = true;
        }
        if (membershipsInDoubt && !(signal instanceof LiveSignal.Closed)
                && settleMemberships() && !(signal instanceof LiveSignal.Resync)) {
            // Chats followed only now may have had messages meanwhile: the client pulls them.
            caughtUp.add(new LiveSignal.Resync());
        }
        return switch (signal) {
            case LiveSignal.Event(var channel, LiveEvent.MessagePosted posted) -> firstTime(posted.chat(), posted.message());
            case LiveSignal.Event(var channel, LiveEvent.MembershipChanged changed) -> {
                if (channel.equals(own)) {
                    // The client hears of its own, so a chat it was added to shows before any
                    // message does: its catch-up comes right after.
                    yield membershipChanged(changed);
                }
                if (!changed.user().equals(user) && subscription.follows(channel)) {
                    presence.memberChanged(changed);
                }
                yield false;
            }
            // Only the user's own channel carries its mailbox; anything else is not its business.
            case LiveSignal.Event(var channel, LiveEvent.DirectMessageDelivered delivered) ->
                    channel.equals(own) && delivered.owner().equals(user);
            case LiveSignal.Presence wakeUp -> {
                presence.wokenUp();
                yield false;
            }
            case LiveSignal.Resync resync -> true;
            case LiveSignal.Event event -> true;
            case LiveSignal.Closed closed -> true;
        };
    }

    /**
     * Ids grow within a chat, so the highest handed out is all it takes to recognise a repeat. A
     * message of a chat the user has left may still be queued behind the news of leaving: dropped.
     */
    private boolean firstTime(ChatId chat, Message message) {
        if (!subscription.follows(Channel.ofChat(chat))) {
            return false;
        }
        Long highest = highestIds.get(chat);
        if (highest != null && message.id() <= highest) {
            return false;
        }
        highestIds.remove(chat);
        highestIds.put(chat, message.id());
        return true;
    }

    /**
     * A chat this user joined, opened or was added to, through any server: its events from now
     * on, then what is pending in it already, and its members as co-members. A chat it left:
     * nothing more of it. True if the client should hear of the change: not when the user left
     * again before this was read, nor when the store could not say (a resync follows then).
     */
    private boolean membershipChanged(LiveEvent.MembershipChanged changed) throws InterruptedException {
        ChatId chat = changed.chat();
        Channel channel = Channel.ofChat(chat);
        if (!changed.member()) {
            subscription.remove(channel);
            highestIds.remove(chat);
            presence.chatLeft(chat);
            return true;
        }
        // Subscribed before the members are read, so no one joining in between goes unnoticed;
        // nothing of the chat is handed out before the read below says the user is a member.
        boolean wasFollowing = subscription.follows(channel);
        subscription.add(channel);
        List<ChatSummary> mine;
        try {
            mine = chats.chatsOf(user);
        } catch (StoreUnavailableException e) {
            // Settled against the store on a later signal; meanwhile the client pulls.
            membershipsInDoubt = true;
            caughtUp.add(new LiveSignal.Resync());
            return false;
        }
        if (mine.stream().noneMatch(summary -> summary.chat().equals(chat))) {
            if (!wasFollowing) {
                subscription.remove(channel); // left again before this was read
            }
            return false;
        }
        presence.chatsAre(mine);
        catchUp(chat::equals, false);
        return true;
    }

    /**
     * The store may not answer yet when the subscription is back (a restarted Redis), or it is
     * busy with other feeds' catch-ups: then the next event tries again, rather than ending a feed
     * the client is about to resync anyway. True if the feed now follows a chat it did not.
     */
    private boolean settleMemberships() throws InterruptedException {
        try {
            Optional<Boolean> followedMore = catchUps.inTurn(this::followWhatTheStoreSays);
            membershipsInDoubt = followedMore.isEmpty();
            return followedMore.orElse(false);
        } catch (StoreUnavailableException stillDown) {
            return false; // still in doubt; the next signal tries again
        }
    }

    /**
     * True if it started following anything: a chat, or presence and the user's own news, which a
     * feed that started while the store was away could not subscribe. Those two come first, so
     * that no change after the read below goes unheard.
     */
    private boolean followWhatTheStoreSays() {
        boolean ownLacking = !subscription.follows(Channel.PRESENCE) || !subscription.follows(own);
        subscription.add(Channel.PRESENCE);
        subscription.add(own);
        List<ChatSummary> mine = chats.chatsOf(user);
        presence.chatsAre(mine);
        Set<ChatId> member = mine.stream().map(ChatSummary::chat).collect(Collectors.toSet());
        Set<ChatId> following = new HashSet<>();
        for (Topic topic : subscription.topics()) {
            if (topic instanceof Channel channel) {
                channel.chat().ifPresent(following::add);
            }
        }
        List<ChatId> joined = member.stream().filter(chat -> !following.contains(chat)).toList();
        joined.forEach(chat -> subscription.add(Channel.ofChat(chat)));
        following.stream().filter(chat -> !member.contains(chat)).forEach(chat -> {
            subscription.remove(Channel.ofChat(chat));
            highestIds.remove(chat);
        });
        return ownLacking || !joined.isEmpty();
    }

    /**
     * Queues what is pending in the chats {@code which} accepts, oldest first in each, within the
     * catch-up budget. A chat with more than the budget let through is followed by a resync: the
     * client must pull the rest. So is a read that did not get its turn or that the store did not
     * answer.
     */
    private void catchUp(Predicate<ChatId> which, boolean forgetOthers) throws InterruptedException {
        Optional<List<PendingChat>> read;
        try {
            read = catchUps.inTurn(() -> chats.pending(user, catchUps.budget().maxMessages()));
        } catch (StoreUnavailableException e) {
            read = Optional.empty();
        }
        if (read.isEmpty()) {
            caughtUp.add(new LiveSignal.Resync());
            return;
        }
        List<PendingChat> pending = read.get();
        if (forgetOthers) {
            // What a resuming client says of chats the user is not in means nothing here.
            Set<ChatId> mine = pending.stream().map(PendingChat::chat).collect(Collectors.toSet());
            highestIds.keySet().retainAll(mine);
        }
        boolean more = false;
        List<PendingChat> wanted = pending.stream().filter(chat -> which.test(chat.chat())).toList();
        for (PendingChat chat : PendingChats.within(catchUps.budget(), wanted)) {
            Channel channel = Channel.ofChat(chat.chat());
            chat.messages().forEach(message ->
                    caughtUp.add(new LiveSignal.Event(channel, new LiveEvent.MessagePosted(chat.chat(), message))));
            more |= chat.more();
        }
        if (more) {
            caughtUp.add(new LiveSignal.Resync());
        }
    }

    /** A store that does not answer leaves the memberships in doubt, settled on a later signal. */
    private void knowCoMembers() {
        try {
            presence.chatsAre(chats.chatsOf(user));
        } catch (StoreUnavailableException e) {
            membershipsInDoubt = true;
        }
    }

    private boolean isMember(ChatId chat) {
        return chats.chatsOf(user).stream().map(ChatSummary::chat).anyMatch(chat::equals);
    }
}
