package dev.pigeonhole.domain.service.live;

import dev.pigeonhole.domain.model.ChatId;
import dev.pigeonhole.domain.model.StoreUnavailableException;
import dev.pigeonhole.domain.model.UserId;
import dev.pigeonhole.domain.model.chat.ChatSummary;
import dev.pigeonhole.domain.model.live.Channel;
import dev.pigeonhole.domain.model.live.Topic;
import dev.pigeonhole.domain.port.in.live.LiveFeed;
import dev.pigeonhole.domain.port.in.live.SubscribeToLiveEvents;
import dev.pigeonhole.domain.port.out.Chats;

import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Live feeds for connected clients, in chat terms, on top of the topic-level
 * {@link SubscriptionMultiplexer}. Everything a transport would otherwise repeat lives in the
 * feed ({@link UserFeed}): catching up, following membership, dropping repeats.
 */
public final class LiveService implements SubscribeToLiveEvents {

    private final SubscriptionMultiplexer multiplexer;
    private final Chats chats;
    private final InstantSource clock;
    private final LiveCatchUps catchUps;

    /**
     * @param clock    paces each feed's presence diffs
     * @param catchUps how many feeds read the store for a catch-up at once
     */
    public LiveService(SubscriptionMultiplexer multiplexer, Chats chats, InstantSource clock, LiveCatchUps catchUps) {
        this.multiplexer = Objects.requireNonNull(multiplexer, "multiplexer");
        this.chats = Objects.requireNonNull(chats, "chats");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.catchUps = Objects.requireNonNull(catchUps, "catchUps");
    }

    public LiveService(SubscriptionMultiplexer multiplexer, Chats chats, InstantSource clock) {
        this(multiplexer, chats, clock, LiveCatchUps.defaults());
    }

    /**
     * Subscribes presence, the user's own channel and its chats' channels. Presence is one channel
     * for the whole server; the feed's {@link PresenceFold} names its co-members to the
     * multiplexer, which offers it their news and no one else's.
     */
    @Override
    public LiveFeed subscribe(UserId user, LiveFeed.Received received) {
        Objects.requireNonNull(user, "user");
        Objects.requireNonNull(received, "received");
        List<ChatSummary> mine = chatsOf(user);
        Set<ChatId> following = mine == null ? null
                : mine.stream().map(ChatSummary::chat).collect(Collectors.toSet());
        List<Topic> topics = new ArrayList<>();
        topics.add(Channel.PRESENCE);
        topics.add(Channel.ofUser(user));
        if (following != null) {
            following.forEach(chat -> topics.add(Channel.ofChat(chat)));
        }
        PresenceFold presence = new PresenceFold(user, mine == null ? List.of() : mine, clock);
        LocalSubscription subscription = multiplexer.subscribe(List.of(), presence);
        // Its co-members are named before presence is followed, so none of their changes is missed.
        presence.listenThrough(subscription);
        try {
            topics.forEach(subscription::add);
        } catch (StoreUnavailableException e) {
            // A topic no one here followed yet needs the store, which is away: the feed starts
            // with nothing and subscribes what it should once the store answers.
            topics.forEach(subscription::remove);
            following = null;
        } catch (RuntimeException e) {
            subscription.close();
            throw e;
        }
        return new UserFeed(user, chats, catchUps, subscription, presence, following, received);
    }

    /**
     * Null if the store does not answer: a feed can start without them, and follows them once the
     * store answers. One read, on the caller's thread; the catch-up after it waits its turn.
     */
    private List<ChatSummary> chatsOf(UserId user) {
        try {
            return chats.chatsOf(user);
        } catch (StoreUnavailableException e) {
            return null;
        }
    }
}
