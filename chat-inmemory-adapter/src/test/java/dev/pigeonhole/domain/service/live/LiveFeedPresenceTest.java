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
import dev.pigeonhole.domain.model.live.Channel;
import dev.pigeonhole.domain.model.live.LiveEvent;
import dev.pigeonhole.domain.model.live.LiveEvent.PresenceChanged;
import dev.pigeonhole.domain.model.live.LiveSignal;
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
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a live feed says of presence: only the people its user shares a chat with, folded into
 * one diff at most once per {@link PresenceFold#INTERVAL} of the test's clock, and nothing of
 * strangers, however much of it comes. The queue holds four signals, so anything that queued one
 * signal per event would be cut off as slow.
 *
 * <p>"Nothing came" is checked without waiting for silence: a message sent afterwards in the
 * user's own chat must come next, since a feed hands out in order.
 */
class LiveFeedPresenceTest {

    /** Feeds are under test here, not the limiter: every write is admitted. */
    private static final Limits UNLIMITED_RATES = Limits.DEFAULTS.withRates(RateLimits.NONE);

    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final int SMALL_QUEUE = 4;

    private final TestClock clock = new TestClock();
    private final InMemoryChannels channels = new InMemoryChannels();
    private final InMemoryChats chats = new InMemoryChats(Limits.DEFAULTS, channels);
    /** Adds go through as the book's do, unless a test says otherwise. */
    private final Acquaintances anyoneAdds = new Acquaintances(new InMemoryConsents(), chats, channels,
            ConsentLimits.DEFAULTS.withDefaultPolicy(AddPolicy.ANYONE));
    private final ChatService chatService =
            new ChatService(chats, channels, new InMemoryQuotas(clock), anyoneAdds, UNLIMITED_RATES, clock);
    private final SubscriptionMultiplexer multiplexer = new SubscriptionMultiplexer(channels, SMALL_QUEUE);
    private final LiveService live = new LiveService(multiplexer, chats, clock);

    private final UserId alice = user();
    private final UserId bob = user();
    private final UserId carol = user();
    private final ChatId lunch = create(alice, Set.of(bob, carol), "hi");

    @AfterEach
    void close() {
        multiplexer.close();
    }

    @Test
    void a_flood_of_strangers_presence_never_takes_room_in_the_queue() throws Exception {
        try (LiveFeed feed = live.subscribe(bob)) {
            assertThat(nextMessage(feed)).isEqualTo("1 hi");
            for (int i = 0; i < 200; i++) {
                presence(user(), true);
            }
            send(lunch, alice, "after the flood");

            assertThat(next(feed)).as("not cut off, and nothing about strangers before the message")
                    .satisfies(signal -> assertThat(text(signal)).isEqualTo("2 after the flood"));
            assertThat(feed.isOpen()).isTrue();
        }
    }

    @Test
    void co_members_comings_and_goings_are_folded_into_one_diff_a_second_each_in_its_latest_state()
            throws Exception {
        try (LiveFeed feed = live.subscribe(bob)) {
            assertThat(nextMessage(feed)).isEqualTo("1 hi");
            presence(alice, true);
            assertThat(next(feed)).as("the first diff goes out at once")
                    .isEqualTo(new LiveSignal.Presence(Set.of(alice), Set.of()));

            for (int i = 0; i < 50; i++) {
                presence(alice, i % 2 == 0);
                presence(carol, i % 2 == 1);
            }
            send(lunch, alice, "within the second");
            assertThat(text(next(feed))).as("the diff waits while the clock has not moved a second")
                    .isEqualTo("2 within the second");

            clock.advance(PresenceFold.INTERVAL);
            assertThat(next(feed)).as("alice went offline last, carol online")
                    .isEqualTo(new LiveSignal.Presence(Set.of(carol), Set.of(alice)));
            send(lunch, alice, "after the diff");
            assertThat(text(next(feed))).as("one diff for all of it").isEqualTo("3 after the diff");
        }
    }

    @Test
    void a_diff_falls_due_while_the_reader_waits_and_wakes_it() throws Exception {
        try (LiveFeed feed = live.subscribe(bob)) {
            assertThat(nextMessage(feed)).isEqualTo("1 hi");
            presence(alice, true);
            assertThat(next(feed)).isEqualTo(new LiveSignal.Presence(Set.of(alice), Set.of()));

            presence(carol, true);
            assertThat(feed.next(Duration.ofMillis(50))).as("not due on the test's clock").isEmpty();
            clock.advance(PresenceFold.INTERVAL);

            assertThat(next(feed)).isEqualTo(new LiveSignal.Presence(Set.of(carol), Set.of()));
        }
    }

    @Test
    void someone_who_joins_one_of_my_chats_is_heard_of_and_someone_who_leaves_is_not() throws Exception {
        UserId dave = user();
        try (LiveFeed feed = live.subscribe(bob)) {
            assertThat(nextMessage(feed)).isEqualTo("1 hi");
            presence(dave, true);
            chatService.join(new JoinChat.Command(lunch, alice, dave));
            send(lunch, alice, "dave is here");
            assertThat(text(next(feed))).as("dave was a stranger then").isEqualTo("2 dave is here");

            presence(dave, false);
            assertThat(next(feed)).isEqualTo(new LiveSignal.Presence(Set.of(), Set.of(dave)));

            chatService.leave(new LeaveChat.Command(lunch, dave));
            send(lunch, alice, "dave has gone");
            assertThat(text(next(feed))).isEqualTo("3 dave has gone");
            clock.advance(PresenceFold.INTERVAL);
            presence(dave, true);
            send(lunch, alice, "nothing of dave");
            assertThat(text(next(feed))).as("a stranger again").isEqualTo("4 nothing of dave");
        }
    }

    @Test
    void a_chat_i_join_makes_its_members_co_members_and_one_i_leave_stops_it() throws Exception {
        UserId erin = user();
        ChatId team = create(erin, Set.of(), "team");
        try (LiveFeed feed = live.subscribe(bob)) {
            assertThat(nextMessage(feed)).isEqualTo("1 hi");
            chatService.join(new JoinChat.Command(team, erin, bob));
            send(team, erin, "welcome bob");
            assertThat(nextMessage(feed)).isEqualTo("2 welcome bob");

            presence(erin, true);
            assertThat(next(feed)).isEqualTo(new LiveSignal.Presence(Set.of(erin), Set.of()));

            chatService.leave(new LeaveChat.Command(team, bob));
            send(lunch, alice, "bob left the team");
            assertThat(nextMessage(feed)).isEqualTo("2 bob left the team");
            clock.advance(PresenceFold.INTERVAL);
            presence(erin, false);
            send(lunch, alice, "nothing of erin");
            assertThat(text(next(feed))).isEqualTo("3 nothing of erin");
        }
    }

    @Test
    void what_was_folded_about_someone_who_then_left_the_chat_is_not_told() throws Exception {
        try (LiveFeed feed = live.subscribe(bob)) {
            assertThat(nextMessage(feed)).isEqualTo("1 hi");
            presence(alice, true);
            assertThat(next(feed)).isEqualTo(new LiveSignal.Presence(Set.of(alice), Set.of()));

            presence(carol, true);
            chatService.leave(new LeaveChat.Command(lunch, carol));
            presence(alice, false);
            // Not due within the second: the feed reads on, and hears that carol left.
            assertThat(feed.next(Duration.ofMillis(200))).isEmpty();
            clock.advance(PresenceFold.INTERVAL);

            assertThat(next(feed)).as("carol is a stranger now").isEqualTo(new LiveSignal.Presence(Set.of(), Set.of(alice)));
        }
    }

    @Test
    void someones_presence_is_offered_only_to_the_feeds_that_share_a_chat_with_them() throws Exception {
        UserId dave = user();
        ChatId team = create(carol, Set.of(dave), "team");
        try (LiveFeed bobs = live.subscribe(bob); LiveFeed daves = live.subscribe(dave)) {
            assertThat(nextMessage(bobs)).isEqualTo("1 hi");
            assertThat(nextMessage(daves)).isEqualTo("1 team");
            assertThat(multiplexer.listenersOf(alice)).as("bob's feed alone").isEqualTo(1);
            assertThat(multiplexer.listenersOf(carol)).as("both feeds").isEqualTo(2);
            assertThat(multiplexer.listenersOf(dave)).as("dave's own feed, not bob's").isEqualTo(1);

            chatService.join(new JoinChat.Command(team, dave, alice));
            send(team, alice, "alice came");
            assertThat(nextMessage(daves)).isEqualTo("2 alice came");
            assertThat(multiplexer.listenersOf(alice)).as("dave's feed hears of alice now").isEqualTo(2);

            chatService.leave(new LeaveChat.Command(team, carol));
            send(team, alice, "carol left");
            assertThat(nextMessage(daves)).isEqualTo("3 carol left");
            assertThat(multiplexer.listenersOf(carol)).as("dave's feed hears of carol no more").isEqualTo(1);
        }
        assertThat(multiplexer.peopleListenedFor()).as("closed feeds leave no one named").isZero();
    }

    private void presence(UserId user, boolean online) {
        channels.publish(Channel.PRESENCE, new PresenceChanged(user, online, clock.instant()));
    }

    private ChatId create(UserId creator, Set<UserId> others, String text) {
        return chatService.create(new CreateChat.Command(creator, others, Optional.empty(), text)).chat();
    }

    private void send(ChatId chat, UserId sender, String text) {
        chatService.send(new SendMessage.Command(chat, sender, text));
    }

    private static LiveSignal next(LiveFeed feed) throws InterruptedException {
        return feed.next(WAIT).orElseThrow(() -> new AssertionError("no signal within " + WAIT));
    }

    /** The next message as "id text", passing over presence diffs. */
    private String nextMessage(LiveFeed feed) throws InterruptedException {
        List<LiveSignal> passed = new ArrayList<>();
        while (true) {
            LiveSignal signal = next(feed);
            if (signal instanceof LiveSignal.Event(var channel, LiveEvent.MessagePosted posted)) {
                return posted.message().id() + " " + posted.message().body();
            }
            boolean ownMembership = signal instanceof LiveSignal.Event(var channel, LiveEvent.MembershipChanged changed)
                    && changed.user().equals(bob);
            assertThat(signal instanceof LiveSignal.Presence || ownMembership)
                    .as("only presence and the user's own membership news come between messages, not " + signal
                            + ", after " + passed).isTrue();
            passed.add(signal);
        }
    }

    private static String text(LiveSignal signal) {
        if (signal instanceof LiveSignal.Event(var channel, LiveEvent.MessagePosted posted)) {
            return posted.message().id() + " " + posted.message().body();
        }
        throw new AssertionError("expected a message, got " + signal);
    }

    private static UserId user() {
        return UserId.of("u-" + UUID.randomUUID().toString().substring(0, 8));
    }
}
