package dev.pigeonhole.adapter.postgres;

import dev.pigeonhole.domain.model.ChatId;
import dev.pigeonhole.domain.model.UserId;
import dev.pigeonhole.domain.model.chat.Message;
import dev.pigeonhole.domain.model.limits.Limits;
import dev.pigeonhole.domain.model.live.Channel;
import dev.pigeonhole.domain.model.live.LiveEvent;
import dev.pigeonhole.domain.model.live.Topic;
import dev.pigeonhole.domain.model.mailbox.Delivered;
import dev.pigeonhole.domain.port.out.Channels;
import dev.pigeonhole.tck.StoreFixture;
import dev.pigeonhole.testsupport.postgres.PostgresServer;
import dev.pigeonhole.testsupport.postgres.PostgresServers;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static dev.pigeonhole.adapter.postgres.PostgresTestSettings.newSettings;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the contract cannot see of live events on PostgreSQL: a message too long for a
 * notification's 8 000 bytes arrives whole all the same, read from where it is stored; a channel
 * name longer than an identifier still carries its own events and no one else's.
 */
@Timeout(60)
class PostgresChannelsTest {

    private static final Instant AT = Instant.parse("2026-01-01T00:00:00.123Z");
    /** Each control character is six bytes of JSON ({@code \u0001}): 2 000 of them do not fit in a notification. */
    private static final String HEAVY_BODY = "x" + "\u0001".repeat(2_000);

    private PostgresServer server;
    private PostgresSettings settings;
    private StoreFixture store;
    private Channels.Connection connection;
    private final Recorder recorder = new Recorder();

    @BeforeEach
    void open() {
        server = PostgresServers.local();
        settings = newSettings(server);
        store = PostgresStoreFixture.open(server, settings, Limits.DEFAULTS);
        connection = store.channels().connect(recorder);
    }

    @AfterEach
    void close() {
        connection.close();
        store.close();
    }

    @Test
    void a_chat_message_too_long_to_notify_arrives_whole_read_from_the_chats_messages() throws Exception {
        ChatId chat = ChatId.of("c" + UUID.randomUUID());
        Message message = new Message(1, AT, UserId.of("alice"), HEAVY_BODY);
        storeChatMessage(chat, message);
        LiveEvent posted = new LiveEvent.MessagePosted(chat, message);
        assertThat(NoticePayload.carried(Channel.ofChat(chat), posted).getBytes(StandardCharsets.UTF_8))
                .hasSizeGreaterThan(Notices.MAX_PAYLOAD_BYTES);
        connection.subscribe(Channel.ofChat(chat));

        store.channels().publish(Channel.ofChat(chat), posted);

        assertThat(recorder.next()).isEqualTo(posted);
    }

    @Test
    void a_direct_message_too_long_to_notify_arrives_whole_read_from_the_mailbox() throws Exception {
        UserId bob = UserId.of("bob-" + UUID.randomUUID());
        connection.subscribe(Channel.ofUser(bob));

        Delivered delivered = store.mailboxes().deliver(bob, UserId.of("alice"), HEAVY_BODY, AT);

        assertThat(recorder.next()).isEqualTo(LiveEvent.announcing(delivered));
    }

    @Test
    void a_message_gone_before_it_was_read_makes_the_receiver_resync() throws Exception {
        ChatId chat = ChatId.of("c" + UUID.randomUUID());
        connection.subscribe(Channel.ofChat(chat));

        store.channels().publish(Channel.ofChat(chat),
                new LiveEvent.MessagePosted(chat, new Message(9, AT, UserId.of("alice"), HEAVY_BODY)));

        assertThat(recorder.resubscribed.await(10, TimeUnit.SECONDS)).as("told to resync").isTrue();
        assertThat(recorder.events).isEmpty();
    }

    @Test
    void a_channel_name_longer_than_an_identifier_carries_its_own_events_and_no_others() throws Exception {
        String stem = "c" + UUID.randomUUID().toString().replace("-", "") + "x".repeat(30);
        Channel longer = Channel.ofChat(ChatId.of(stem + "a"));
        Channel sibling = Channel.ofChat(ChatId.of(stem + "b"));
        assertThat(new ChannelNames(settings.schema()).of(longer))
                .hasSizeLessThanOrEqualTo(ChannelNames.MAX_BYTES)
                .isNotEqualTo(new ChannelNames(settings.schema()).of(sibling));
        connection.subscribe(longer);

        LiveEvent forSibling = new LiveEvent.MembershipChanged(UserId.of("carol"), sibling.chat().orElseThrow(), true);
        LiveEvent forLonger = new LiveEvent.MembershipChanged(UserId.of("carol"), longer.chat().orElseThrow(), true);
        store.channels().publish(sibling, forSibling);
        store.channels().publish(longer, forLonger);

        assertThat(recorder.next()).isEqualTo(forLonger);
        assertThat(recorder.events).isEmpty();
    }

    private void storeChatMessage(ChatId chat, Message message) throws SQLException {
        try (Connection sql = PlainJdbc.connect(server, settings.schema())) {
            try (PreparedStatement row = sql.prepareStatement(
                    "insert into chats (id, access, last_id, first_available_id) values (?, 'PRIVATE', ?, 1)")) {
                row.setString(1, chat.value());
                row.setLong(2, message.id());
                row.executeUpdate();
            }
            try (PreparedStatement row = sql.prepareStatement(
                    "insert into chat_messages (chat_id, id, sent_at_millis, sender, body) values (?, ?, ?, ?, ?)")) {
                row.setString(1, chat.value());
                row.setLong(2, message.id());
                row.setLong(3, message.sentAt().toEpochMilli());
                row.setString(4, message.sender().value());
                row.setString(5, message.body());
                row.executeUpdate();
            }
        }
    }

    private static final class Recorder implements Channels.Receiver {

        final BlockingQueue<LiveEvent> events = new LinkedBlockingQueue<>();
        final CountDownLatch resubscribed = new CountDownLatch(1);

        @Override
        public void onEvent(Topic via, Channel channel, LiveEvent event) {
            events.add(event);
        }

        @Override
        public void onResubscribed() {
            resubscribed.countDown();
        }

        LiveEvent next() throws InterruptedException {
            LiveEvent event = events.poll(10, TimeUnit.SECONDS);
            assertThat(event).as("an event within 10 s").isNotNull();
            return event;
        }
    }
}
