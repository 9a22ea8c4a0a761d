package dev.pigeonhole.adapter.redis;

import dev.pigeonhole.book.BookChat;
import dev.pigeonhole.domain.model.ChatId;
import dev.pigeonhole.domain.model.UnknownChatException;
import dev.pigeonhole.domain.model.UserId;
import dev.pigeonhole.domain.model.chat.Message;
import dev.pigeonhole.domain.model.chat.PendingChat;
import dev.pigeonhole.domain.model.limits.Limits;
import dev.pigeonhole.domain.port.out.Chats;
import dev.pigeonhole.tck.StoreFixture;
import dev.pigeonhole.testsupport.redis.RedisServers;
import dev.pigeonhole.testsupport.redis.RedisTarget;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.UnaryOperator;
import java.util.stream.LongStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

/**
 * The book layout's promise: Redis in Action's own functions ({@link BookChat}, written from
 * the listings, sharing nothing with the adapter) and this adapter read and write the same chats.
 */
class BookLayoutInteropTest {

    private static final Instant AT = Instant.parse("2026-11-21T10:00:00.250Z");

    private StoreFixture store;
    private KeyLayout keys;
    private Chats chats;
    private BookChat book;

    @BeforeEach
    void open() {
        RedisTarget target = RedisServers.single();
        keys = KeyLayout.book(target.newPrefix());
        store = RedisStoreFixture.open(target, RedisClientKind.LETTUCE, keys, Limits.DEFAULTS, UnaryOperator.identity());
        chats = store.chats();
        book = newBookChat(target);
    }

    @AfterEach
    void close() {
        book.close();
        store.close();
    }

    @Test
    void a_chat_the_book_creates_is_pending_here_with_its_messages_intact() {
        String chat = book.createChat("jeff24", List.of("jason22"), "caf\u00e9 \"at\" noon?", null);
        book.sendMessage(chat, "jeff24", "second");

        List<PendingChat> pending = chats.pending(UserId.of("jason22"), 100);

        assertThat(pending).hasSize(1);
        assertThat(pending.getFirst().chat()).isEqualTo(ChatId.of(chat));
        assertThat(pending.getFirst().messages()).extracting(Message::id, m -> m.sender().value(), Message::body)
                .containsExactly(tuple(1L, "jeff24", "caf\u00e9 \"at\" noon?"),
                        tuple(2L, "jeff24", "second"));
    }

    @Test
    void a_message_sent_here_is_fetched_by_the_book_and_its_fetch_acknowledges_it_here() {
        ChatId chat = chats.newChatId();
        chats.open(chat, UserId.of("jeff24"), Set.of(UserId.of("jason22")), "hi jason", AT);
        chats.send(chat, UserId.of("jeff24"), "still there?", AT.plusMillis(1));

        Map<String, List<Map<String, Object>>> fetched = parsed(book.fetchPendingMessages("jason22"));

        assertThat(fetched.get(chat.value())).extracting(m -> m.get("id"), m -> m.get("sender"), m -> m.get("message"))
                .containsExactly(tuple(1L, "jeff24", "hi jason"),
                        tuple(2L, "jeff24", "still there?"));
        assertThat(fetched.get(chat.value()).getFirst().get("ts")).isEqualTo(new BigDecimal("1795255200.250"));
        assertThat(chats.pending(UserId.of("jason22"), 100)).singleElement()
                .satisfies(p -> assertThat(p.unread()).isZero());
    }

    @Test
    void an_acknowledge_here_moves_the_cursor_the_book_reads() {
        String chat = book.createChat("jeff24", List.of("jason22"), "one", null);
        book.sendMessage(chat, "jeff24", "two");

        chats.acknowledge(UserId.of("jason22"), ChatId.of(chat), 2);

        assertThat(book.fetchPendingMessages("jason22").get(chat)).isEmpty();
    }

    @Test
    void the_books_scenario_jason22_has_seen_five_of_six() {
        book.createChat("jeff24", List.of("jason22"), "message 1", "827");
        for (int i = 2; i <= 6; i++) {
            book.sendMessage("827", "jeff24", "message " + i);
        }
        chats.acknowledge(UserId.of("jason22"), ChatId.of("827"), 5);

        PendingChat pending = chats.pending(UserId.of("jason22"), 100).getFirst();

        assertThat(pending.unread()).isEqualTo(1);
        assertThat(pending.messages()).extracting(Message::id).containsExactly(6L);
    }

    /**
     * One book sender (more would mostly race each other for the book's lock, which is not fair
     * and starves a loser) against two adapter senders, which take no lock but respect it.
     */
    @Test
    void a_book_sender_and_adapter_senders_at_once_never_share_or_skip_an_id() throws Exception {
        ChatId chat = ChatId.of(book.createChat("jeff24", List.of("jason22"), "start", null));
        int perSender = 200;
        int adapterSenders = 2;
        ExecutorService pool = Executors.newFixedThreadPool(1 + adapterSenders);
        CountDownLatch go = new CountDownLatch(1);
        List<Future<?>> done = new ArrayList<>();
        try (BookChat bookSender = newBookChat(RedisServers.single())) {
            done.add(pool.submit(() -> {
                go.await();
                for (int i = 0; i < perSender; i++) {
                    bookSender.sendMessage(chat.value(), "jeff24", "book " + i);
                }
                return null;
            }));
            for (int s = 0; s < adapterSenders; s++) {
                int sender = s;
                done.add(pool.submit(() -> {
                    go.await();
                    for (int i = 0; i < perSender; i++) {
                        chats.send(chat, UserId.of("jason22"), "adapter " + sender + "/" + i, AT);
                    }
                    return null;
                }));
            }
            go.countDown();
            for (Future<?> each : done) {
                each.get();
            }
        } finally {
            pool.shutdownNow();
        }

        List<Message> all = chats.read(UserId.of("jeff24"), chat, 0, 1000).messages();
        int expected = 1 + (1 + adapterSenders) * perSender;
        assertThat(all).extracting(Message::id)
                .containsExactlyElementsOf(LongStream.rangeClosed(1, expected).boxed().toList());
        assertThat(all).extracting(Message::body).doesNotHaveDuplicates();
    }

    @Test
    void when_the_book_lets_the_last_member_go_the_chat_is_gone_here_too() {
        String chat = book.createChat("jeff24", List.of(), "alone", null);

        book.leaveChat(chat, "jeff24");

        assertThatThrownBy(() -> chats.send(ChatId.of(chat), UserId.of("jeff24"), "anyone?", AT))
                .isInstanceOf(UnknownChatException.class);
        assertThat(store.tracesOf(ChatId.of(chat))).isEmpty();
    }

    @Test
    void a_member_who_joins_through_the_book_starts_at_the_latest_message_here() {
        String chat = book.createChat("jeff24", List.of(), "before you came", null);

        book.joinChat(chat, "jason22");
        chats.send(ChatId.of(chat), UserId.of("jeff24"), "welcome", AT);

        assertThat(chats.pending(UserId.of("jason22"), 100)).singleElement()
                .satisfies(p -> assertThat(p.messages()).extracting(Message::body).containsExactly("welcome"));
    }

    private BookChat newBookChat(RedisTarget target) {
        var node = target.masters().getFirst();
        return new BookChat(new Jedis(node.host(), node.port()), keys.prefix());
    }

    /** What the book's json.loads makes of each message, read by a parser that knows nothing of the adapter. */
    private static Map<String, List<Map<String, Object>>> parsed(Map<String, List<String>> fetched) {
        Map<String, List<Map<String, Object>>> parsed = new LinkedHashMap<>();
        fetched.forEach((chat, messages) -> parsed.put(chat, messages.stream().map(JsonObjects::parse).toList()));
        return parsed;
    }
}
