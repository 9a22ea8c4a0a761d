package dev.pigeonhole.domain.service;

import dev.pigeonhole.domain.model.Channel;
import dev.pigeonhole.domain.model.ChatId;
import dev.pigeonhole.domain.model.ChatSummary;
import dev.pigeonhole.domain.model.LiveEvent;
import dev.pigeonhole.domain.model.StoreUnavailableException;
import dev.pigeonhole.domain.model.Topic;
import dev.pigeonhole.domain.model.UserId;
import dev.pigeonhole.domain.port.in.LiveFeed;
import dev.pigeonhole.domain.port.in.SubscribeToLiveEvents;
import dev.pigeonhole.domain.port.out.Chats;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/**
 * Live feeds for connected clients, in chat terms, on top of the topic-level
 * {@link SubscriptionMultiplexer}. Everything a transport would otherwise repeat lives in the
 * feed ({@link UserFeed}): catching up, following membership, dropping repeats.
 */
public final class LiveService implements SubscribeToLiveEvents {

    private final SubscriptionMultiplexer multiplexer;
    private final Chats chats;
    private final LiveCatchUps catchUps;

    public LiveService(SubscriptionMultiplexer multiplexer, Chats chats, LiveCatchUps catchUps) {
        this.multiplexer = Objects.requireNonNull(multiplexer, "multiplexer");
        this.chats = Objects.requireNonNull(chats, "chats");
        this.catchUps = Objects.requireNonNull(catchUps, "catchUps");
    }

    public LiveService(SubscriptionMultiplexer multiplexer, Chats chats) {
        this(multiplexer, chats, LiveCatchUps.defaults());
    }

    @Override
    public LiveFeed subscribe(UserId user, LiveFeed.Received received) {
        Objects.requireNonNull(user, "user");
        Objects.requireNonNull(received, "received");
        Set<ChatId> following = chatsOf(user);
        List<Topic> topics = new ArrayList<>();
        topics.add(Channel.PRESENCE);
        topics.add(Channel.MEMBERSHIPS);
        if (following != null) {
            following.forEach(chat -> topics.add(Channel.ofChat(chat)));
        }
        LocalSubscription subscription = multiplexer.subscribe(topics, aboutOthersMembership(user).negate());
        return new UserFeed(user, chats, catchUps, subscription, following, received);
    }

    /**
     * Null if the store does not answer: a feed can start without them, and follows them once the
     * store answers. One read, on the caller's thread; the catch-up after it waits its turn.
     */
    private Set<ChatId> chatsOf(UserId user) {
        try {
            return chats.chatsOf(user).stream().map(ChatSummary::chat).collect(Collectors.toSet());
        } catch (StoreUnavailableException e) {
            return null;
        }
    }

    /**
     * Every server's membership changes share one channel; a feed needs only its own user's, and
     * the others must not take room in its bounded queue.
     */
    private static Predicate<LiveEvent> aboutOthersMembership(UserId user) {
        return event -> event instanceof LiveEvent.MembershipChanged changed && !changed.user().equals(user);
    }
}
