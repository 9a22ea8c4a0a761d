package dev.pigeonhole.app;

import dev.pigeonhole.domain.model.ChatId;
import dev.pigeonhole.domain.model.InvalidInputException;
import dev.pigeonhole.domain.model.NotAMemberException;
import dev.pigeonhole.domain.model.UnknownChatException;
import dev.pigeonhole.domain.model.UserId;
import dev.pigeonhole.domain.model.chat.CreatedChat;
import dev.pigeonhole.domain.model.chat.Message;
import dev.pigeonhole.domain.model.chat.PendingChat;
import dev.pigeonhole.domain.model.limits.Limits;
import dev.pigeonhole.domain.model.live.LiveEvent;
import dev.pigeonhole.domain.model.live.LiveSignal;
import dev.pigeonhole.domain.port.in.chat.AcknowledgeMessages;
import dev.pigeonhole.domain.port.in.consent.AcceptInvitation;
import dev.pigeonhole.domain.port.in.chat.CreateChat;
import dev.pigeonhole.domain.port.in.chat.FetchPending;
import dev.pigeonhole.domain.port.in.chat.JoinChat;
import dev.pigeonhole.domain.port.in.chat.LeaveChat;
import dev.pigeonhole.domain.port.in.chat.ReadMessages;
import dev.pigeonhole.domain.port.in.chat.SendMessage;
import dev.pigeonhole.domain.port.in.live.LiveFeed;
import dev.pigeonhole.domain.port.in.mailbox.AcknowledgeDirectMessages;
import dev.pigeonhole.domain.port.in.mailbox.DeliverDirectMessage;
import dev.pigeonhole.domain.port.in.mailbox.ReadDirectMessages;
import dev.pigeonhole.domain.port.in.presence.ListOnlineUsers;
import dev.pigeonhole.testsupport.TestClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Every use case through the real composition root on the in-memory store: the services, their
 * configuration and the adapters together, as a driving adapter will use them.
 */
class UseCasesEndToEndTest {

    private static final Instant START = Instant.parse("2026-11-21T10:00:00Z");
    private static final Duration WAIT = Duration.ofSeconds(5);

    private final TestClock clock = new TestClock(START);
    private Pigeonhole app = Pigeonhole.start(AppConfig.defaults(), clock);

    @AfterEach
    void stop() throws Exception {
        app.close();
    }

    @Test
    void the_books_scenario_leaves_jason22_with_one_of_six_messages_pending() {
        List<PendingChat> pending = new BookScenario(app, new PrintWriter(new StringWriter())).run();

        assertThat(pending).singleElement().satisfies(chat -> {
            assertThat(chat.chat()).isEqualTo(BookScenario.CHAT);
            assertThat(chat.unread()).isEqualTo(1);
            assertThat(chat.messages()).extracting(Message::id).containsExactly(6L);
            assertThat(chat.gap()).isFalse();
        });
    }

    @Test
    void a_chat_lives_from_creation_to_its_last_member_leaving() {
        UserId alice = user();
        UserId bob = user();
        UserId carol = user();
        CreatedChat chat = app.createChat().create(new CreateChat.Command(alice, Set.of(bob), Optional.empty(), "hi"));
        ChatId id = chat.chat();
        // Strangers to alice, bob and then carol are invited, and come in once they accept.
        app.acceptInvitation().accept(new AcceptInvitation.Command(bob, id));

        assertThat(chat.firstMessage()).isEqualTo(new Message(1, START, alice, "hi"));
        clock.advance(Duration.ofSeconds(1));
        Message reply = app.sendMessage().send(new SendMessage.Command(id, bob, "hello"));
        assertThat(reply.sentAt()).isEqualTo(START.plusSeconds(1));

        app.joinChat().join(new JoinChat.Command(id, bob, carol));
        app.acceptInvitation().accept(new AcceptInvitation.Command(carol, id));
        Message third = app.sendMessage().send(new SendMessage.Command(id, alice, "welcome carol"));
        assertThat(pendingIds(carol, id)).containsExactly(third.id());
        assertThat(pendingIds(bob, id)).containsExactly(1L, 2L, 3L); // his own #2 too: he had not read #1

        app.acknowledgeMessages().acknowledge(new AcknowledgeMessages.Command(bob, id, 3));
        assertThat(pendingIds(bob, id)).isEmpty();
        assertThat(app.readMessages().read(new ReadMessages.Query(bob, id, 0, 10)).lastId()).isEqualTo(3);

        for (UserId member : List.of(alice, bob, carol)) {
            app.leaveChat().leave(new LeaveChat.Command(id, member));
        }
        assertThat(app.listChats().chatsOf(alice)).isEmpty();
        assertThatThrownBy(() -> app.joinChat().join(JoinChat.Command.self(id, alice)))
                .isInstanceOf(UnknownChatException.class);
    }

    @Test
    void the_configured_limits_are_enforced_with_messages_that_name_them() throws Exception {
        app.close();
        app = Pigeonhole.start(AppConfig.defaults().withLimits(Limits.DEFAULTS.withMaxBodyLength(10).withMaxMembers(2)),
                clock);
        UserId alice = user();

        assertThatThrownBy(() -> app.createChat().create(
                new CreateChat.Command(alice, Set.of(user(), user()), Optional.empty(), "hi")))
                .isInstanceOf(InvalidInputException.class)
                .hasMessage("a chat may have at most 2 members; this one would have 3");
        ChatId chat = app.createChat().create(new CreateChat.Command(alice, Set.of(), Optional.empty(), "hi")).chat();
        assertThatThrownBy(() -> app.sendMessage().send(new SendMessage.Command(chat, alice, "x".repeat(11))))
                .isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("the limit is 10");
        assertThat(app.listChats().chatsOf(alice)).singleElement().satisfies(s -> assertThat(s.lastId()).isEqualTo(1));
    }

    @Test
    void a_direct_message_waits_in_the_mailbox_until_its_owner_acknowledges_it() {
        UserId alice = user();
        UserId bob = user();

        app.deliverDirectMessage().deliver(new DeliverDirectMessage.Command(alice, bob, "one"));
        app.deliverDirectMessage().deliver(new DeliverDirectMessage.Command(alice, bob, "two"));

        assertThat(app.readDirectMessages().read(new ReadDirectMessages.Command(bob, 10)))
                .extracting(message -> message.id() + " " + message.body())
                .containsExactly("1 one", "2 two");
        app.acknowledgeDirectMessages().acknowledge(new AcknowledgeDirectMessages.Command(bob, 1));
        assertThat(app.readDirectMessages().read(new ReadDirectMessages.Command(bob, 10)))
                .extracting(message -> message.body()).containsExactly("two");
        app.acknowledgeDirectMessages().acknowledge(new AcknowledgeDirectMessages.Command(bob, 2));
        assertThat(app.readDirectMessages().read(new ReadDirectMessages.Command(bob, 10))).isEmpty();
    }

    @Test
    void a_co_member_is_online_within_the_window_and_offline_after_pruning_and_a_stranger_never_shows()
            throws Exception {
        UserId alice = user();
        UserId watcher = user();
        UserId stranger = user();
        ChatId shared = app.createChat().create(new CreateChat.Command(alice, Set.of(watcher), Optional.empty(), "hi"))
                .chat();
        app.acceptInvitation().accept(new AcceptInvitation.Command(watcher, shared));
        try (LiveFeed feed = app.subscribeToLiveEvents().subscribe(watcher)) {
            app.touchPresence().touch(stranger);
            app.touchPresence().touch(alice);

            assertThat(app.listOnlineUsers().online(watcher)).contains(alice).doesNotContain(stranger);
            assertThat(nextPresence(feed)).isEqualTo(new LiveSignal.Presence(Set.of(alice), Set.of()));

            clock.advance(Duration.ofMinutes(16));
            assertThat(app.listOnlineUsers().online(watcher)).doesNotContain(alice);
            assertThat(app.listOnlineUsers().online(watcher, new ListOnlineUsers.Query(Duration.ofMinutes(20))))
                    .contains(alice);
            assertThat(app.prunePresence().pruneStale()).isGreaterThanOrEqualTo(1);
            assertThat(nextPresence(feed)).isEqualTo(new LiveSignal.Presence(Set.of(), Set.of(alice)));

            clock.advance(Duration.ofSeconds(1));
            app.touchPresence().touch(alice);
            assertThat(nextPresence(feed)).isEqualTo(new LiveSignal.Presence(Set.of(alice), Set.of()));
        }
    }

    @Test
    void a_live_feed_catches_up_then_follows_the_users_chats_and_a_chat_joined_while_connected() throws Exception {
        UserId alice = user();
        UserId bob = user();
        ChatId first = app.createChat().create(new CreateChat.Command(alice, Set.of(bob), Optional.empty(), "hi")).chat();
        // Bob accepts alice's first chat; from then on they are co-members, and her adds are direct.
        app.acceptInvitation().accept(new AcceptInvitation.Command(bob, first));
        ChatId second = app.createChat().create(new CreateChat.Command(alice, Set.of(), Optional.empty(), "solo")).chat();

        try (LiveFeed feed = app.subscribeToLiveEvents().subscribe(bob)) {
            assertThat(((LiveEvent.MessagePosted) nextMessage(feed)).message().body()).as("pending first").isEqualTo("hi");
            Message sent = app.sendMessage().send(new SendMessage.Command(first, alice, "live"));
            assertThat(nextMessage(feed)).isEqualTo(new LiveEvent.MessagePosted(first, sent));

            assertThatThrownBy(() -> feed.follow(second)).isInstanceOf(NotAMemberException.class);
            app.joinChat().join(new JoinChat.Command(second, alice, bob));
            Message later = app.sendMessage().send(new SendMessage.Command(second, alice, "now you hear me"));
            assertThat(nextMessage(feed)).isEqualTo(new LiveEvent.MessagePosted(second, later));
        }
    }

    @Test
    void many_feeds_on_one_chat_share_one_upstream_subscription() throws Exception {
        UserId alice = user();
        UserId bob = user();
        app.createChat().create(new CreateChat.Command(alice, Set.of(bob), Optional.empty(), "hi"));

        try (LiveFeed a = app.subscribeToLiveEvents().subscribe(alice);
             LiveFeed b = app.subscribeToLiveEvents().subscribe(bob);
             LiveFeed again = app.subscribeToLiveEvents().subscribe(bob)) {
            // The chat, presence and each user's own channel: four, however many feeds follow them.
            assertThat(app.upstreamSubscriptions()).isEqualTo(4);
        }
        assertThat(app.upstreamSubscriptions()).isZero();
    }

    @Test
    void the_demo_command_prints_the_books_outcome_and_bad_commands_exit_2() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();

        assertThat(Main.run(new String[]{"demo"}, print(out), print(err))).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("chat 827: 1 unread", "[827 #6]");
        assertThat(Main.run(new String[]{"serve-everything"}, print(out), print(err))).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("'serve-everything'", "Usage: pigeonhole");
    }

    private List<Long> pendingIds(UserId user, ChatId chat) {
        return app.fetchPending().pending(new FetchPending.Query(user)).stream()
                .filter(pending -> pending.chat().equals(chat))
                .flatMap(pending -> pending.messages().stream())
                .map(Message::id)
                .toList();
    }

    private static LiveEvent nextMessage(LiveFeed feed) throws InterruptedException {
        while (true) {
            LiveSignal signal = feed.next(WAIT).orElseThrow(() -> new AssertionError("no live signal within " + WAIT));
            if (signal instanceof LiveSignal.Event(var channel, LiveEvent.MessagePosted posted)) {
                return posted;
            }
        }
    }

    private static LiveSignal.Presence nextPresence(LiveFeed feed) throws InterruptedException {
        while (true) {
            LiveSignal signal = feed.next(WAIT).orElseThrow(() -> new AssertionError("no live signal within " + WAIT));
            if (signal instanceof LiveSignal.Presence diff) {
                return diff;
            }
        }
    }

    private static PrintStream print(ByteArrayOutputStream sink) {
        return new PrintStream(sink, true, StandardCharsets.UTF_8);
    }

    private static UserId user() {
        return UserId.of("u-" + UUID.randomUUID().toString().substring(0, 8));
    }
}
