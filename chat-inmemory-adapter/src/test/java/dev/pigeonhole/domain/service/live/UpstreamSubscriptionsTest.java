package dev.pigeonhole.domain.service.live;

import dev.pigeonhole.adapter.inmemory.InMemoryChannels;
import dev.pigeonhole.adapter.inmemory.InMemoryChats;
import dev.pigeonhole.adapter.inmemory.InMemoryConsents;
import dev.pigeonhole.adapter.inmemory.InMemoryQuotas;
import dev.pigeonhole.domain.model.ChatId;
import dev.pigeonhole.domain.model.UserId;
import dev.pigeonhole.domain.model.consent.AddPolicy;
import dev.pigeonhole.domain.model.consent.ConsentLimits;
import dev.pigeonhole.domain.model.limits.Limits;
import dev.pigeonhole.domain.model.limits.RateLimits;
import dev.pigeonhole.domain.port.in.chat.CreateChat;
import dev.pigeonhole.domain.port.in.live.LiveFeed;
import dev.pigeonhole.domain.service.Acquaintances;
import dev.pigeonhole.domain.service.chat.ChatService;
import dev.pigeonhole.testsupport.TestClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What live feeds cost the store in subscriptions: one per channel, however many feeds follow it.
 * With membership news on each user's own channel, that is one per chat, one per user with a feed
 * open, and one for presence.
 */
class UpstreamSubscriptionsTest {

    /** Feeds are under test here, not the limiter: every write is admitted. */
    private static final Limits UNLIMITED_RATES = Limits.DEFAULTS.withRates(RateLimits.NONE);

    private static final int USERS = 100;
    private static final int FEEDS_PER_USER = 10;
    private static final int CHAT_SIZE = 10;

    private final TestClock clock = new TestClock();
    private final InMemoryChannels channels = new InMemoryChannels();
    private final InMemoryChats chats = new InMemoryChats(Limits.DEFAULTS, channels);
    /** Adds go through as the book's do, unless a test says otherwise. */
    private final Acquaintances anyoneAdds = new Acquaintances(new InMemoryConsents(), chats, channels,
            ConsentLimits.DEFAULTS.withDefaultPolicy(AddPolicy.ANYONE));
    private final ChatService chatService =
            new ChatService(chats, channels, new InMemoryQuotas(clock), anyoneAdds, UNLIMITED_RATES, clock);
    private final SubscriptionMultiplexer multiplexer = new SubscriptionMultiplexer(channels, 1_024);
    private final LiveService live = new LiveService(multiplexer, chats, clock);

    @AfterEach
    void close() {
        multiplexer.close();
    }

    @Test
    void a_thousand_feeds_of_a_hundred_users_in_ten_chats_hold_one_hundred_and_eleven_subscriptions() {
        String run = UUID.randomUUID().toString().substring(0, 8);
        List<UserId> users = IntStream.range(0, USERS).mapToObj(i -> UserId.of("u" + i + "-" + run)).toList();
        Set<ChatId> chatsOpened = new HashSet<>();
        for (int first = 0; first < USERS; first += CHAT_SIZE) {
            List<UserId> members = users.subList(first, first + CHAT_SIZE);
            chatsOpened.add(chatService.create(new CreateChat.Command(members.getFirst(),
                    Set.copyOf(members.subList(1, CHAT_SIZE)), Optional.empty(), "hi")).chat());
        }
        List<LiveFeed> feeds = new ArrayList<>();
        for (int round = 0; round < FEEDS_PER_USER; round++) {
            users.forEach(user -> feeds.add(live.subscribe(user)));
        }

        assertThat(multiplexer.localSubscriptions()).isEqualTo(USERS * FEEDS_PER_USER);
        assertThat(multiplexer.upstreamSubscriptions()).as("%d chats, %d users' own channels and presence",
                        chatsOpened.size(), USERS)
                .isEqualTo(chatsOpened.size() + USERS + 1)
                .isEqualTo(111);

        feeds.forEach(LiveFeed::close);
        assertThat(multiplexer.upstreamSubscriptions()).isZero();
    }
}
