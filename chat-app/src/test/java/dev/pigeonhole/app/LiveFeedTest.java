package dev.pigeonhole.app;

import dev.pigeonhole.domain.model.ChatId;
import dev.pigeonhole.domain.model.LiveEvent;
import dev.pigeonhole.domain.model.LiveSignal;
import dev.pigeonhole.domain.model.LiveSignal.CloseReason;
import dev.pigeonhole.domain.model.UserId;
import dev.pigeonhole.domain.port.in.CreateChat;
import dev.pigeonhole.domain.port.in.JoinChat;
import dev.pigeonhole.domain.port.in.LeaveChat;
import dev.pigeonhole.domain.port.in.LiveFeed;
import dev.pigeonhole.domain.port.in.SendMessage;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * The domain's live feed, which every transport (WebSocket, Server-Sent Events) only turns into
 * frames: catch-up, following membership, dropping repeats, resuming.
 *
 * <p>Here rather than in chat-domain because the feed works on the store's answers (pending
 * messages, memberships) and on the membership events the chat service announces: its tests run
 * on the real in-memory adapter, wired by the composition root, which chat-domain cannot see and
 * which must not be replaced by a hand-made double of the ports.
 */
class LiveFeedTest {

    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final Duration QUIET = Duration.ofMillis(200);

    private Pigeonhole app = Pigeonhole.start(AppConfig.defaults(), new TestClock(Instant.parse("2026-11-21T10:00:00Z")));

    @AfterEach
    void close() throws Exception {
        app.close();
    }

    @Test
    void pending_messages_come_first_oldest_first_then_live_ones_and_none_twice() throws Exception {
        UserId alice = user();
        UserId bob = user();
        ChatId chat = create(alice, Set.of(bob), "one");
        send(chat, alice, "two");

        try (LiveFeed feed = app.subscribeToLiveEvents().subscribe(bob)) {
            // Sent after the subscription and before the catch-up reads: both see it, bob gets it once.
            send(chat, alice, "three");
            assertThat(texts(feed, 3)).containsExactly("1 one", "2 two", "3 three");
            send(chat, alice, "four");
            assertThat(texts(feed, 1)).containsExactly("4 four");
            assertThat(messagesWithin(feed, QUIET)).as("nothing repeated").isEmpty();
        }
    }

    @Test
    void a_chat_joined_while_connected_is_followed_and_caught_up_and_one_left_is_dropped() throws Exception {
        UserId alice = user();
        UserId bob = user();
        try (LiveFeed feed = app.subscribeToLiveEvents().subscribe(bob)) {
            ChatId opened = create(alice, Set.of(bob), "welcome");
            assertThat(texts(feed, 1)).as("the opening message, sent before the feed followed the chat")
                    .containsExactly("1 welcome");

            ChatId joined = create(alice, Set.of(), "before bob");
            app.joinChat().join(new JoinChat.Command(joined, bob));
            send(joined, alice, "after bob joined");
            assertThat(texts(feed, 1)).as("joined at the latest id: nothing before it")
                    .containsExactly("2 after bob joined");

            app.leaveChat().leave(new LeaveChat.Command(opened, bob));
            send(opened, alice, "bob is gone");
            send(joined, alice, "still here");
            assertThat(texts(feed, 1)).containsExactly("3 still here");
            assertThat(messagesWithin(feed, QUIET)).as("nothing of the chat bob left").isEmpty();
        }
    }

    @Test
    void membership_changes_stay_inside_the_feed_and_others_never_reach_it() throws Exception {
        UserId alice = user();
        UserId bob = user();
        try (LiveFeed feed = app.subscribeToLiveEvents().subscribe(bob)) {
            create(alice, Set.of(user(), user()), "not for bob");
            ChatId mine = create(alice, Set.of(bob), "for bob");

            List<LiveSignal> signals = new ArrayList<>();
            while (signals.stream().noneMatch(signal -> isMessageIn(signal, mine))) {
                signals.add(feed.next(WAIT).orElseThrow(() -> new AssertionError("no signal within " + WAIT)));
            }
            assertThat(signals).noneMatch(signal -> signal instanceof LiveSignal.Event event
                    && event.event() instanceof LiveEvent.MembershipChanged);
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
        try (LiveFeed feed = app.subscribeToLiveEvents().subscribe(bob)) {
            texts(feed, 3);
            received = feed.received();
        }
        assertThat(received.highestIds()).containsExactlyInAnyOrderEntriesOf(Map.of(first, 2L, second, 1L));

        send(first, alice, "3 in first");
        Map<ChatId, Long> claimed = new LinkedHashMap<>(received.highestIds());
        claimed.put(stranger, 99L);
        try (LiveFeed feed = app.subscribeToLiveEvents().subscribe(bob, new LiveFeed.Received(claimed))) {
            assertThat(texts(feed, 1)).containsExactly("3 3 in first");
            assertThat(messagesWithin(feed, QUIET)).as("nothing bob had").isEmpty();
            assertThat(feed.received().highestIds()).as("a chat that is not bob's is not carried on")
                    .containsOnlyKeys(first, second)
                    .containsEntry(first, 3L);
        }
    }

    @Test
    void what_a_feed_has_handed_out_is_bounded_to_the_chats_heard_from_last() throws Exception {
        UserId alice = user();
        UserId bob = user();
        List<ChatId> chats = new ArrayList<>();
        for (int i = 0; i < LiveFeed.Received.MAX_CHATS + 4; i++) {
            chats.add(create(alice, Set.of(bob), "hi"));
        }
        try (LiveFeed feed = app.subscribeToLiveEvents().subscribe(bob)) {
            texts(feed, chats.size());
            ChatId oldest = chats.stream().sorted().findFirst().orElseThrow();
            send(oldest, alice, "again");
            texts(feed, 1);

            Map<ChatId, Long> kept = feed.received().highestIds();
            assertThat(kept).hasSize(LiveFeed.Received.MAX_CHATS).containsEntry(oldest, 2L);
            assertThat(List.copyOf(kept.keySet()).getLast()).as("the chat heard from last comes last").isEqualTo(oldest);
        }
        assertThatThrownBy(() -> new LiveFeed.Received(Map.of(chats.getFirst(), 0L)))
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
        try (LiveFeed feed = app.subscribeToLiveEvents().subscribe(bob)) {
            assertThat(texts(feed, 1_000)).endsWith("1000 999");
            assertThat(feed.next(WAIT)).contains(new LiveSignal.Resync());
        }
    }

    @Test
    void a_feed_no_one_reads_is_cut_off_as_slow_and_lets_go_of_its_chats_when_read() throws Exception {
        app.close();
        app = Pigeonhole.start(AppConfig.defaults().withLiveQueueCapacity(4), new TestClock(Instant.now()));
        UserId alice = user();
        UserId bob = user();
        ChatId chat = create(alice, Set.of(bob), "hi");
        LiveFeed feed = app.subscribeToLiveEvents().subscribe(bob);
        int held = app.upstreamSubscriptions();
        for (int i = 0; i < 10; i++) {
            send(chat, alice, "unread " + i);
        }
        await().atMost(WAIT).until(() -> !feed.isOpen());
        assertThat(app.upstreamSubscriptions()).as("held until the feed's own reader lets go").isEqualTo(held);

        assertThat(feed.next(WAIT)).contains(new LiveSignal.Closed(CloseReason.SLOW));
        assertThat(app.upstreamSubscriptions()).as("the slow feed's chat, presence and memberships let go").isZero();
        feed.close();
    }

    private ChatId create(UserId creator, Set<UserId> others, String text) {
        return app.createChat().create(new CreateChat.Command(creator, others, Optional.empty(), text)).chat();
    }

    private void send(ChatId chat, UserId sender, String text) {
        app.sendMessage().send(new SendMessage.Command(chat, sender, text));
    }

    private static boolean isMessageIn(LiveSignal signal, ChatId chat) {
        return signal instanceof LiveSignal.Event(var channel, LiveEvent.MessagePosted posted) && posted.chat().equals(chat);
    }

    /** The next {@code count} messages as "id text", skipping presence. */
    private static List<String> texts(LiveFeed feed, int count) throws InterruptedException {
        return messages(feed, count).stream()
                .map(posted -> posted.message().id() + " " + posted.message().body())
                .toList();
    }

    private static List<LiveEvent.MessagePosted> messages(LiveFeed feed, int count) throws InterruptedException {
        List<LiveEvent.MessagePosted> messages = new ArrayList<>();
        while (messages.size() < count) {
            LiveSignal signal = feed.next(WAIT).orElseThrow(() -> new AssertionError("no signal within " + WAIT));
            if (signal instanceof LiveSignal.Event(var channel, LiveEvent.MessagePosted posted)) {
                messages.add(posted);
            }
        }
        return messages;
    }

    /** Every message handed out within {@code quiet}: a check that nothing more comes. */
    private static List<LiveEvent.MessagePosted> messagesWithin(LiveFeed feed, Duration quiet) throws InterruptedException {
        List<LiveEvent.MessagePosted> messages = new ArrayList<>();
        Optional<LiveSignal> signal;
        while ((signal = feed.next(quiet)).isPresent()) {
            if (signal.get() instanceof LiveSignal.Event(var channel, LiveEvent.MessagePosted posted)) {
                messages.add(posted);
            }
        }
        return messages;
    }

    private static UserId user() {
        return UserId.of("u-" + UUID.randomUUID().toString().substring(0, 8));
    }
}
