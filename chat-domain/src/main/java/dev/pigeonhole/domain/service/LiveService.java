package dev.pigeonhole.domain.service;

import dev.pigeonhole.domain.model.Channel;
import dev.pigeonhole.domain.model.ChatId;
import dev.pigeonhole.domain.model.ChatSummary;
import dev.pigeonhole.domain.model.LiveSignal;
import dev.pigeonhole.domain.model.NotAMemberException;
import dev.pigeonhole.domain.model.Topic;
import dev.pigeonhole.domain.model.UserId;
import dev.pigeonhole.domain.port.in.LiveFeed;
import dev.pigeonhole.domain.port.in.SubscribeToLiveEvents;
import dev.pigeonhole.domain.port.out.Chats;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Live feeds for connected clients, in chat terms, on top of the topic-level
 * {@link SubscriptionMultiplexer}.
 */
public final class LiveService implements SubscribeToLiveEvents {

    private final SubscriptionMultiplexer multiplexer;
    private final Chats chats;

    public LiveService(SubscriptionMultiplexer multiplexer, Chats chats) {
        this.multiplexer = Objects.requireNonNull(multiplexer, "multiplexer");
        this.chats = Objects.requireNonNull(chats, "chats");
    }

    @Override
    public LiveFeed subscribe(UserId user) {
        Objects.requireNonNull(user, "user");
        List<Topic> topics = new ArrayList<>();
        topics.add(Channel.PRESENCE);
        topics.add(Channel.MEMBERSHIPS);
        chats.chatsOf(user).forEach(summary -> topics.add(Channel.ofChat(summary.chat())));
        return new Feed(user, multiplexer.subscribe(topics));
    }

    private final class Feed implements LiveFeed {

        private final UserId user;
        private final LocalSubscription subscription;

        Feed(UserId user, LocalSubscription subscription) {
            this.user = user;
            this.subscription = subscription;
        }

        @Override
        public Optional<LiveSignal> next(Duration timeout) throws InterruptedException {
            return subscription.next(timeout);
        }

        /** Members only: a feed must not become a way around reading permissions. */
        @Override
        public void follow(ChatId chat) {
            boolean member = chats.chatsOf(user).stream().map(ChatSummary::chat).anyMatch(chat::equals);
            if (!member) {
                throw new NotAMemberException(user, chat);
            }
            subscription.add(Channel.ofChat(chat));
        }

        @Override
        public void unfollow(ChatId chat) {
            subscription.remove(Channel.ofChat(chat));
        }

        @Override
        public boolean isOpen() {
            return subscription.isOpen();
        }

        @Override
        public void close() {
            subscription.close();
        }
    }
}
