package dev.pigeonhole.adapter.postgres;

import dev.pigeonhole.domain.model.ChatId;
import dev.pigeonhole.domain.model.UserId;
import dev.pigeonhole.domain.model.limits.Limits;
import dev.pigeonhole.domain.model.limits.RateLimit;
import dev.pigeonhole.testsupport.postgres.PostgresServer;
import dev.pigeonhole.testsupport.postgres.PostgresServers;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;

import static dev.pigeonhole.adapter.postgres.PostgresTestSettings.newSettings;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the chat tables let go of, which no port's answer shows: the messages every member has
 * read, once a batch acknowledge moves the last cursor past them, and a sender's bucket once it
 * is full again. Kept rows would read the same through the ports, and grow without end.
 */
class ChatRowsTrimTest {

    private static final Instant AT = Instant.parse("2026-11-27T10:00:00Z");

    private PostgresServer server;
    private PostgresStore store;
    private PostgresChats chats;

    @BeforeEach
    void open() {
        server = PostgresServers.local();
        store = new PostgresStore(newSettings(server));
        chats = new PostgresChats(store, Limits.DEFAULTS);
    }

    @AfterEach
    void close() {
        store.close();
    }

    @Test
    void messages_every_member_acknowledged_in_a_batch_are_deleted() throws SQLException {
        UserId alice = user();
        UserId bob = user();
        ChatId chat = ChatId.of("c-" + UUID.randomUUID());
        chats.open(chat, alice, Set.of(bob), "one", AT);
        chats.send(chat, alice, "two", AT);
        chats.send(chat, alice, "three", AT);

        chats.acknowledge(bob, new TreeMap<>(Map.of(chat, 3L)));

        long firstAvailable = query("select first_available_id from chats where id = ?", chat).getFirst();
        assertThat(firstAvailable).as("the messages everyone has read are let go").isGreaterThan(1);
        assertThat(query("select id from chat_messages where chat_id = ? order by id", chat))
                .as("no row below the first available id").allMatch(id -> id >= firstAvailable);
    }

    @Test
    void a_senders_bucket_full_again_is_deleted_at_the_next_send_in_the_chat() throws SQLException {
        UserId alice = user();
        UserId bob = user();
        ChatId chat = ChatId.of("c-" + UUID.randomUUID());
        RateLimit rate = new RateLimit(2, Duration.ofMinutes(1));
        chats.open(chat, alice, Set.of(bob), "hi", AT);
        chats.send(chat, alice, "rated", AT, Optional.empty(), rate);
        assertThat(senders(chat)).containsExactly(alice.value());

        chats.send(chat, bob, "later", AT.plus(Duration.ofMinutes(5)), Optional.empty(), rate);

        assertThat(senders(chat)).as("alice's bucket is full again: as good as none").containsExactly(bob.value());
    }

    private List<String> senders(ChatId chat) throws SQLException {
        return column("select sender from send_buckets where chat_id = ?", chat);
    }

    private List<Long> query(String sql, ChatId chat) throws SQLException {
        return column(sql, chat).stream().map(Long::valueOf).toList();
    }

    /** The first column of what {@code sql} finds for the chat, read on a plain connection of its own. */
    private List<String> column(String sql, ChatId chat) throws SQLException {
        List<String> values = new ArrayList<>();
        try (Connection connection = PlainJdbc.connect(server, store.settings().schema());
             PreparedStatement rows = connection.prepareStatement(sql)) {
            rows.setString(1, chat.value());
            try (ResultSet found = rows.executeQuery()) {
                while (found.next()) {
                    values.add(found.getString(1));
                }
            }
        }
        return values;
    }

    private static UserId user() {
        return UserId.of("u-" + UUID.randomUUID());
    }
}
