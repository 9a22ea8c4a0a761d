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
import dev.pigeonhole.domain.model.limits.PendingBudget;
import dev.pigeonhole.domain.model.limits.RateLimits;
import dev.pigeonhole.domain.model.live.LiveEvent;
import dev.pigeonhole.domain.model.live.LiveSignal;
import dev.pigeonhole.domain.model.live.LiveSignal.CloseReason;
import dev.pigeonhole.domain.port.in.chat.CreateChat;
import dev.pigeonhole.domain.port.in.chat.JoinChat;
import dev.pigeonhole.domain.port.in.chat.LeaveChat;
import dev.pigeonhole.domain.port.in.chat.SendMessage;
import dev.pigeonhole.domain.port.in.live.LiveFeed;
import dev.pigeonhole.domain.service.Acquaintances;
import dev.pigeonhole.domain.service.chat.ChatService;
import dev.pigeonhole.testsupport.TestClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * The domain's live feed on the in-memory store, which every transport (WebSocket, Server-Sent
 * Events) only turns into frames: catch-up, following membership, dropping repeats, resuming.
 *
 * <p>"Nothing more came" is checked without waiting for silence: the test sends one more message
 * and expects it next, since a feed hands out in order.
 */
class LiveServiceTest {

    /** Feeds are under test here, not the limiter: every write is admitted. */
    private static final Limits UNLIMITED_RATES = Limits.DEFAULTS.withRates(RateLimits.NONE);

    private static final Duration WAIT = Duration.ofSeconds(10);

    private final InMemoryChannels channels = new InMemoryChannels();
    private final InMemoryChats chats = new InMemoryChats(Limits.DEFAULTS, channels);
    private final TestClock clock = new TestClock();
    /** Adds go through as the book's do, unless a test says otherwise. */
    private final Acquaintances anyoneAdds = new Acquaintances(new InMemoryConsents(), chats, channels,
            ConsentLimits.DEFAULTS.withDefaultPolicy(AddPolicy.ANYONE));
    private final ChatService chatService =
            new ChatService(chats, channels, new InMemoryQuotas(clock), anyoneAdds, UNLIMITED_RATES, clock);
    private SubscriptionMultiplexer multiplexer = new SubscriptionMultiplexer(channels, 1_024);
    private LiveService live = new LiveService(multiplexer, chats, clock);

    @AfterEach
    void close() {
        multiplexer.close();
    }

    @Test
    void pending_messages_come_first_oldest_first_then_live_ones_and_none_twice() throws Exception {
        UserId alice = user();
        UserId bob = user();
        ChatId chat = create(alice, Set.of(bob), "one");
        send(chat, alice, "two");

        try (LiveFeed feed = live.subscribe(bob)) {
            // Sent after the subscription and before the catch-up reads: both see it, bob gets it once.
            send(chat, alice, "three");
            assertThat(texts(feed, 3)).containsExactly("1 one", "2 two", "3 three");
            send(chat, alice, "four");
            assertThat(texts(feed, 1)).as("nothing repeated before it").containsExactly("4 four");
        }
    }

    @Test
    void a_chat_joined_while_connected_is_followed_and_caught_up_and_one_left_is_dropped() throws Exception {
        UserId alice = user();
        UserId bob = user();
        try (LiveFeed feed = live.subscribe(bob)) {
            ChatId opened = create(alice, Set.of(bob), "welcome");
            assertThat(texts(feed, 1)).as("the opening message, sent before the feed followed the chat")
                    .containsExactly("1 welcome");

            ChatId joined = create(alice, Set.of(), "before bob");
            chatService.join(new JoinChat.Command(joined, alice, bob));
            send(joined, alice, "after bob joined");
            assertThat(texts(feed, 1)).as("joined at the latest id: nothing before it")
                    .containsExactly("2 after bob joined");

            chatService.leave(new LeaveChat.Command(opened, bob));
            send(opened, alice, "bob is gone");
            send(joined, alice, "still here");
            assertThat(texts(feed, 1)).as("nothing of the chat bob left").containsExactly("3 still here");
        }
    }

    @Test
    void the_users_own_membership_news_comes_ahead_of_the_chat_and_no_one_elses_reaches_it() throws Exception {
        UserId alice = user();
        UserId bob = user();
        try (LiveFeed feed = live.subscribe(bob)) {
            create(alice, Set.of(user(), user()), "not for bob");
            ChatId mine = create(alice, Set.of(bob), "for bob");

            List<LiveSignal> signals = new ArrayList<>();
            while (signals.stream().noneMatch(signal -> isMessageIn(signal, mine))) {
                signals.add(feed.next(WAIT).orElseThrow(() -> new AssertionError("no signal within " + WAIT)));
            }
            List<LiveEvent> memberships = signals.stream()
                    .filter(signal -> signal instanceof LiveSignal.Event event
                            && event.event() instanceof LiveEvent.MembershipChanged)
                    .map(signal -> ((LiveSignal.Event) signal).event()).toList();
            assertThat(memberships).containsExactly(new LiveEvent.MembershipChanged(bob, mine, true));
            assertThat(signals.getLast()).as("the chat's first message, after the news of it")
                    .satisfies(signal -> assertThat(isMessageIn(signal, mine)).isTrue());
        }
    }

    @Test
    void a_feed_that_resumes_sends_nothing_the_client_has_and_everything_it_has_not() throws Exception {
        UserId alice = user();
        UserId bob = user();
        ChatId first = create(alice, Set.of(bob), "1 in first");
        send(first, alice, "2 in first");
        ChatId second = create(alice, Set.of(bob), "1 in second");
        ChatId stranger = create(alice, Set.of(), "not bob's");

        LiveFeed.Received received;
        try (LiveFeed feed = live.subscribe(bob)) {
            texts(feed, 3);
            received = feed.received();
        }
        assertThat(received.highestIds()).containsExactlyInAnyOrderEntriesOf(Map.of(first, 2L, second, 1L));

        send(first, alice, "3 in first");
        Map<ChatId, Long> claimed = new LinkedHashMap<>(received.highestIds());
        claimed.put(stranger, 99L);
        try (LiveFeed feed = live.subscribe(bob, new LiveFeed.Received(claimed))) {
            assertThat(texts(feed, 1)).containsExactly("3 3 in first");
            send(second, alice, "2 in second");
            assertThat(texts(feed, 1)).as("nothing bob had came before it").containsExactly("2 2 in second");
            assertThat(feed.received().highestIds()).as("a chat that is not bob's is not carried on")
                    .containsOnlyKeys(first, second)
                    .containsEntry(first, 3L);
        }
    }

    @Test
    void what_a_feed_has_handed_out_is_bounded_to_the_chats_heard_from_last() throws Exception {
        UserId alice = user();
        UserId bob = user();
        List<ChatId> opened = new ArrayList<>();
        for (int i = 0; i < LiveFeed.Received.MAX_CHATS + 4; i++) {
            opened.add(create(alice, Set.of(bob), "hi"));
        }
        try (LiveFeed feed = live.subscribe(bob)) {
            texts(feed, opened.size());
            ChatId oldest = opened.stream().sorted().findFirst().orElseThrow();
            send(oldest, alice, "again");
            texts(feed, 1);

            Map<ChatId, Long> kept = feed.received().highestIds();
            assertThat(kept).hasSize(LiveFeed.Received.MAX_CHATS).containsEntry(oldest, 2L);
            assertThat(List.copyOf(kept.keySet()).getLast()).as("the chat heard from last comes last").isEqualTo(oldest);
        }
        assertThatThrownBy(() -> new LiveFeed.Received(Map.of(opened.getFirst(), 0L)))
                .hasMessageContaining("at least 1");
    }

    @Test
    void a_chat_with_more_unread_than_a_catch_up_carries_is_followed_by_a_resync() throws Exception {
        UserId alice = user();
        UserId bob = user();
        ChatId chat = create(alice, Set.of(bob), "0");
        for (int i = 1; i <= 1_000; i++) {
            send(chat, alice, Integer.toString(i));
        }
        try (LiveFeed feed = live.subscribe(bob)) {
            assertThat(texts(feed, 1_000)).endsWith("1000 999");
            assertThat(feed.next(WAIT)).contains(new LiveSignal.Resync());
        }
    }

    @Test
    void a_catch_up_holds_what_its_budget_allows_shared_over_the_chats_then_a_resync() throws Exception {
        live = new LiveService(multiplexer, chats, clock,
                new LiveCatchUps(1, Duration.ofSeconds(5), new PendingBudget(6, 1 << 20)));
        UserId alice = user();
        UserId bob = user();
        ChatId one = create(alice, Set.of(bob), "a0");
        ChatId two = create(alice, Set.of(bob), "b0");
        for (int i = 1; i <= 5; i++) {
            send(one, alice, "a" + i);
            send(two, alice, "b" + i);
        }
        try (LiveFeed feed = live.subscribe(bob)) {
            assertThat(texts(feed, 6)).containsExactlyInAnyOrder("1 a0", "2 a1", "3 a2", "1 b0", "2 b1", "3 b2");
            assertThat(feed.next(WAIT)).contains(new LiveSignal.Resync());
        }
    }

    @Test
    void a_catch_up_whose_turn_does_not_come_is_a_resync_and_live_messages_still_follow() throws Exception {
        LiveCatchUps oneAtATime = new LiveCatchUps(1, Duration.ZERO);
        live = new LiveService(multiplexer, chats, clock, oneAtATime);
        UserId alice = user();
        UserId bob = user();
        ChatId chat = create(alice, Set.of(bob), "one");
        try (LiveFeed feed = live.subscribe(bob)) {
            CountDownLatch holding = new CountDownLatch(1);
            CountDownLatch done = new CountDownLatch(1);
            Thread.ofVirtual().start(() -> {
                try {
                    oneAtATime.inTurn(() -> {
                        holding.countDown();
                        await().atMost(WAIT).until(() -> done.getCount() == 0);
                        return null;
                    });
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            assertThat(holding.await(WAIT.toSeconds(), TimeUnit.SECONDS)).as("another feed's catch-up holds the turn").isTrue();
            assertThat(feed.next(WAIT)).as("instead of the catch-up").contains(new LiveSignal.Resync());
            done.countDown();

            send(chat, alice, "two");
            assertThat(texts(feed, 1)).containsExactly("2 two");
            assertThat(feed.isOpen()).isTrue();
        }
    }

    @Test
    void a_transport_that_cannot_carry_a_catch_up_gets_a_resync_instead_of_the_rest_of_it() throws Exception {
        UserId alice = user();
        UserId bob = user();
        ChatId chat = create(alice, Set.of(bob), "one");
        send(chat, alice, "two");
        send(chat, alice, "three");
        try (LiveFeed feed = live.subscribe(bob)) {
            assertThat(texts(feed, 1)).containsExactly("1 one");
            assertThat(feed.resyncInsteadOfCatchUp()).as("the message handed out was caught up").isTrue();
            assertThat(feed.next(WAIT)).as("the rest of the catch-up dropped").contains(new LiveSignal.Resync());

            send(chat, alice, "four");
            assertThat(texts(feed, 1)).containsExactly("4 four");
            assertThat(feed.resyncInsteadOfCatchUp()).as("a live message is no catch-up to cut short").isFalse();
        }
    }

    @Test
    void a_feed_no_one_reads_is_cut_off_as_slow_and_lets_go_of_its_chats_when_read() throws Exception {
        multiplexer.close();
        multiplexer = new SubscriptionMultiplexer(channels, 4);
        live = new LiveService(multiplexer, chats, clock);
        UserId alice = user();
        UserId bob = user();
        ChatId chat = create(alice, Set.of(bob), "hi");
        LiveFeed feed = live.subscribe(bob);
        int held = multiplexer.upstreamSubscriptions();
        for (int i = 0; i < 10; i++) {
            send(chat, alice, "unread " + i);
        }
        await().atMost(WAIT).until(() -> !feed.isOpen());
        assertThat(multiplexer.upstreamSubscriptions()).as("held until the feed's own reader lets go").isEqualTo(held);

        assertThat(feed.next(WAIT)).contains(new LiveSignal.Closed(CloseReason.SLOW));
        assertThat(multiplexer.upstreamSubscriptions()).as("the slow feed's chat, presence and own channel let go")
                .isZero();
        feed.close();
    }

    @Test
    void after_a_lost_connection_the_feed_follows_the_chats_the_store_says_the_user_is_in() throws Exception {
        UserId alice = user();
        UserId bob = user();
        ChatId stays = create(alice, Set.of(bob), "hi bob");
        ChatId left = create(alice, Set.of(bob), "hi again");
        ChatId joined = create(alice, Set.of(), "bob is not here yet");
        try (LiveFeed feed = live.subscribe(bob)) {
            assertThat(texts(feed, 2)).containsExactlyInAnyOrder("1 hi bob", "1 hi again");
            // Changed in the store alone, as if the news of it had been lost with the connection.
            chats.join(joined, alice, bob);
            chats.leave(left, bob);

            channels.disconnectAll();
            assertThat(feed.next(WAIT)).contains(new LiveSignal.Resync());
            send(left, alice, "bob has gone");
            send(joined, alice, "bob is here");
            send(stays, alice, "still with bob");

            assertThat(texts(feed, 2)).as("the chat left is no longer followed, the one joined is, the other stays")
                    .containsExactly("2 bob is here", "2 still with bob");
        }
    }

    @Test
    void a_feed_is_open_until_closed_and_closing_it_lets_go_of_its_subscriptions() {
        UserId bob = user();
        create(user(), Set.of(bob), "hi");
        LiveFeed feed = live.subscribe(bob);
        assertThat(feed.isOpen()).isTrue();
        assertThat(multiplexer.localSubscriptions()).isEqualTo(1);

        feed.close();

        assertThat(feed.isOpen()).isFalse();
        assertThat(multiplexer.localSubscriptions()).isZero();
        assertThat(multiplexer.upstreamSubscriptions()).isZero();
    }

    @Test
    void a_quiet_feed_answers_nothing_once_the_wait_is_over() throws Exception {
        try (LiveFeed feed = live.subscribe(user())) {
            assertThat(feed.next(Duration.ofMillis(20))).isEmpty();
        }
    }

    @Test
    void a_multiplexer_closing_ends_every_feed_as_the_server_stopping_and_holds_nothing_after() throws Exception {
        UserId bob = user();
        create(user(), Set.of(bob), "hi");
        LiveFeed feed = live.subscribe(bob);

        multiplexer.close();

        assertThat(multiplexer.localSubscriptions()).as("forgotten at once, before any feed reads again").isZero();
        assertThat(multiplexer.upstreamSubscriptions()).isZero();
        assertThat(feed.next(WAIT)).contains(new LiveSignal.Closed(CloseReason.SHUTDOWN));
        assertThatThrownBy(() -> live.subscribe(bob)).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void a_subscription_ends_once_and_keeps_saying_why() throws Exception {
        LocalSubscription subscription = multiplexer.subscribe(List.of(dev.pigeonhole.domain.model.live.Channel.PRESENCE));

        subscription.close();
        multiplexer.close();

        assertThat(subscription.isOpen()).isFalse();
        assertThat(subscription.closeReason()).as("the first end is the one that counts").contains(CloseReason.UNSUBSCRIBED);
        assertThat(subscription.next(WAIT)).contains(new LiveSignal.Closed(CloseReason.UNSUBSCRIBED));
        assertThat(subscription.next(WAIT)).contains(new LiveSignal.Closed(CloseReason.UNSUBSCRIBED));
    }

    @Test
    void a_reader_waiting_on_a_subscription_is_woken_when_it_ends() throws Exception {
        LocalSubscription subscription = multiplexer.subscribe(List.of(dev.pigeonhole.domain.model.live.Channel.PRESENCE));
        CompletableFuture<Optional<LiveSignal>> woken = new CompletableFuture<>();
        Thread reader = Thread.ofVirtual().start(() -> {
            try {
                woken.complete(subscription.next(Duration.ofHours(1)));
            } catch (InterruptedException e) {
                woken.completeExceptionally(e);
            }
        });
        await().atMost(WAIT).until(() -> reader.getState() == Thread.State.TIMED_WAITING);

        subscription.close();

        assertThat(woken.get(WAIT.toSeconds(), TimeUnit.SECONDS)).contains(new LiveSignal.Closed(CloseReason.UNSUBSCRIBED));
    }

    @Test
    void a_queue_holds_at_least_one_signal() {
        new SubscriptionMultiplexer(channels, 1).close();

        assertThatThrownBy(() -> new SubscriptionMultiplexer(channels, 0))
                .hasMessage("queueCapacity must be at least 1, not 0");
    }

    @Test
    void a_chat_joined_and_left_before_the_feed_read_of_it_is_never_followed() throws Exception {
        UserId alice = user();
        UserId bob = user();
        ChatId home = create(alice, Set.of(bob), "one");
        ChatId brief = create(alice, Set.of(), "brief");
        try (LiveFeed feed = live.subscribe(bob)) {
            assertThat(texts(feed, 1)).containsExactly("1 one");
            chatService.join(new JoinChat.Command(brief, alice, bob));
            chatService.leave(new LeaveChat.Command(brief, bob));
            send(brief, alice, "not for bob");
            send(home, alice, "two");

            List<LiveSignal> signals = new ArrayList<>();
            while (signals.stream().noneMatch(signal -> isMessageIn(signal, home))) {
                signals.add(feed.next(WAIT).orElseThrow(() -> new AssertionError("no signal within " + WAIT)));
            }
            assertThat(signals).noneMatch(signal -> isMessageIn(signal, brief));
            assertThat(signals).filteredOn(signal -> signal instanceof LiveSignal.Event event
                            && event.event() instanceof LiveEvent.MembershipChanged)
                    .extracting(signal -> ((LiveSignal.Event) signal).event())
                    .as("the join no longer held when it was read; the leave is told")
                    .containsExactly(new LiveEvent.MembershipChanged(bob, brief, false));
        }
    }

    @Test
    void a_catch_up_gives_its_turn_back() throws Exception {
        LiveCatchUps oneAtATime = new LiveCatchUps(1, Duration.ZERO);

        assertThat(oneAtATime.inTurn(() -> "first")).contains("first");
        assertThat(oneAtATime.inTurn(() -> "second")).as("the only turn was given back").contains("second");
    }

    private ChatId create(UserId creator, Set<UserId> others, String text) {
        return chatService.create(new CreateChat.Command(creator, others, Optional.empty(), text)).chat();
    }

    private void send(ChatId chat, UserId sender, String text) {
        chatService.send(new SendMessage.Command(chat, sender, text));
    }

    private static boolean isMessageIn(LiveSignal signal, ChatId chat) {
        return signal instanceof LiveSignal.Event(var channel, LiveEvent.MessagePosted posted) && posted.chat().equals(chat);
    }

    /** The next {@code count} messages as "id text", skipping presence. */
    private static List<String> texts(LiveFeed feed, int count) throws InterruptedException {
        List<String> texts = new ArrayList<>();
        while (texts.size() < count) {
            LiveSignal signal = feed.next(WAIT).orElseThrow(() -> new AssertionError("no signal within " + WAIT));
            if (signal instanceof LiveSignal.Event(var channel, LiveEvent.MessagePosted posted)) {
                texts.add(posted.message().id() + " " + posted.message().body());
            }
        }
        return texts;
    }

    private static UserId user() {
        return UserId.of("u-" + UUID.randomUUID().toString().substring(0, 8));
    }
}
