package dev.pigeonhole.app;

import dev.pigeonhole.adapter.http.ApiClient;
import dev.pigeonhole.testsupport.TestClock;
import dev.pigeonhole.testsupport.redis.RedisServers;
import dev.pigeonhole.testsupport.redis.RedisTarget;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The whole server as a client meets it: the real composition root and the real HTTP adapter on
 * a free port, driven over HTTP, once on the in-memory store and once on Redis through each
 * client. Each Redis run gets a key prefix of its own, so runs never see each other's data and
 * nothing is flushed. The clock is the test's, so message times and the presence window are exact.
 */
@ParameterizedClass(name = "{0}")
@EnumSource(StoreUnderTest.class)
class ServerEndToEndTest {

    private static final Instant START = Instant.parse("2026-11-21T10:00:00.123Z");
    private static final String START_TS = "2026-11-21T10:00:00.123Z";
    private static final Pattern MESSAGES_SENT =
            Pattern.compile("^pigeonhole_messages_sent_total(?:\\{[^}]*})? (\\S+)$", Pattern.MULTILINE);

    private final StoreUnderTest store;
    private final TestClock clock = new TestClock(START);
    // Maintenance would prune presence behind the test's back once the clock moves; an hour keeps it out.
    @RegisterExtension
    final RunningServer server = RunningServer.on(this::config).clock(clock)
            .configured(config -> config.withMaintenance(Duration.ofHours(1)));
    private RedisTarget redis;
    private String prefix;

    ServerEndToEndTest(StoreUnderTest store) {
        this.store = store;
    }

    private AppConfig config() {
        if (!store.isRedis()) {
            return store.config();
        }
        // This test looks at the keys a deleted chat left, so it keeps the prefix at hand.
        redis = RedisServers.single();
        prefix = redis.newPrefix();
        return store.on(redis, prefix);
    }

    // --- group chat -----------------------------------------------------------------------------

    @Test
    void a_new_chat_is_pending_for_the_other_member_and_never_unread_for_its_sender() {
        String alice = ApiClient.randomUser("alice");
        String bob = ApiClient.randomUser("bob");
        String aliceToken = server.api().signIn(alice);
        String bobToken = server.api().signIn(bob);

        ApiClient.Response created = server.api().postJson("/api/chats", aliceToken,
                Map.of("members", List.of(bob), "message", "hi"));
        assertThat(created.status()).as(created.toString()).isEqualTo(201);
        String chat = created.json().get("chatId").stringValue();
        assertThat(chat).isNotBlank();
        assertThat(created.json().get("message")).isEqualTo(message(1, alice, "hi"));

        ApiClient.Response sent = server.api().postJson("/api/chats/" + chat + "/messages", aliceToken,
                Map.of("message", "are you there?"));
        assertThat(sent.status()).as(sent.toString()).isEqualTo(201);
        assertThat(sent.json()).isEqualTo(message(2, alice, "are you there?"));

        JsonNode bobsPending = onlyPendingChat(bobToken);
        assertThat(bobsPending.get("chatId").stringValue()).isEqualTo(chat);
        assertThat(bobsPending.get("messages").values())
                .containsExactly(message(1, alice, "hi"), message(2, alice, "are you there?"));
        assertThat(bobsPending.get("unread").longValue()).isEqualTo(2);
        assertThat(bobsPending.get("gap").booleanValue()).isFalse();

        JsonNode alicesPending = onlyPendingChat(aliceToken);
        assertThat(alicesPending.get("chatId").stringValue()).isEqualTo(chat);
        assertThat(alicesPending.get("unread").longValue()).isZero();
        assertThat(alicesPending.get("messages").values()).isEmpty();

        JsonNode bobsChats = ok(server.api().get("/api/chats", bobToken));
        assertThat(bobsChats.values()).singleElement().satisfies(summary -> {
            assertThat(summary.get("chatId").stringValue()).isEqualTo(chat);
            assertThat(strings(summary.get("members"))).containsExactlyElementsOf(sorted(alice, bob));
            assertThat(summary.get("cursor").longValue()).isZero();
            assertThat(summary.get("lastId").longValue()).isEqualTo(2);
            assertThat(summary.get("unread").longValue()).isEqualTo(2);
        });
    }

    @Test
    void a_member_reads_the_history_a_page_at_a_time_without_moving_its_cursor() {
        String alice = ApiClient.randomUser("alice");
        String bob = ApiClient.randomUser("bob");
        String aliceToken = server.api().signIn(alice);
        String bobToken = server.api().signIn(bob);
        String chat = server.openChat(aliceToken, List.of(bob), "one");
        server.send(aliceToken, chat, "two");
        server.send(aliceToken, chat, "three");

        JsonNode first = ok(server.api().get("/api/chats/" + chat + "/messages?after=0&limit=2", bobToken));
        assertThat(ids(first.get("messages"))).containsExactly(1L, 2L);
        assertThat(first.get("gap").booleanValue()).isFalse();
        JsonNode second = ok(server.api().get("/api/chats/" + chat + "/messages?after=2&limit=2", bobToken));
        assertThat(second.get("messages").values()).containsExactly(message(3, alice, "three"));

        assertThat(onlyPendingChat(bobToken).get("unread").longValue()).isEqualTo(3);

        ApiClient.Response stranger = server.api().get("/api/chats/" + chat + "/messages",
                server.api().signIn(ApiClient.randomUser("carol")));
        assertThat(stranger.status()).as(stranger.toString()).isEqualTo(404);
        assertThat(stranger.contentType()).startsWith("application/problem+json");
    }

    @Test
    void acknowledging_up_to_the_last_message_empties_pending_and_never_moves_back() {
        String alice = ApiClient.randomUser("alice");
        String bob = ApiClient.randomUser("bob");
        String aliceToken = server.api().signIn(alice);
        String bobToken = server.api().signIn(bob);
        String chat = server.openChat(aliceToken, List.of(bob), "one");
        server.send(aliceToken, chat, "two");

        assertThat(server.api().postJson("/api/chats/" + chat + "/read", bobToken, Map.of("upTo", 1)).status()).isEqualTo(204);
        JsonNode afterFirst = onlyPendingChat(bobToken);
        assertThat(afterFirst.get("messages").values()).containsExactly(message(2, alice, "two"));
        assertThat(afterFirst.get("unread").longValue()).isEqualTo(1);

        assertThat(server.api().postJson("/api/chats/" + chat + "/read", bobToken, Map.of("upTo", 2)).status()).isEqualTo(204);
        JsonNode afterAll = onlyPendingChat(bobToken);
        assertThat(afterAll.get("messages").values()).isEmpty();
        assertThat(afterAll.get("unread").longValue()).isZero();

        assertThat(server.api().postJson("/api/chats/" + chat + "/read", bobToken, Map.of("upTo", 1)).status()).isEqualTo(204);
        assertThat(onlyPendingChat(bobToken).get("unread").longValue()).isZero();
    }

    @Test
    void a_user_who_is_invited_starts_at_the_latest_id_and_gets_only_what_follows() {
        String alice = ApiClient.randomUser("alice");
        String bob = ApiClient.randomUser("bob");
        String carol = ApiClient.randomUser("carol");
        String aliceToken = server.api().signIn(alice);
        String carolToken = server.api().signIn(carol);
        String chat = server.openChat(aliceToken, List.of(bob), "one");
        server.send(aliceToken, chat, "two");
        server.send(aliceToken, chat, "three");

        ApiClient.Response invited = server.api().postJson("/api/chats/" + chat + "/members", aliceToken, Map.of("user", carol));
        assertThat(invited.status()).as(invited.toString()).isEqualTo(204);

        JsonNode atJoin = onlyPendingChat(carolToken);
        assertThat(atJoin.get("unread").longValue()).isZero();
        assertThat(atJoin.get("messages").values()).isEmpty();
        assertThat(ok(server.api().get("/api/chats", carolToken)).values()).singleElement().satisfies(summary -> {
            assertThat(strings(summary.get("members"))).containsExactlyElementsOf(sorted(alice, bob, carol));
            assertThat(summary.get("cursor").longValue()).isEqualTo(3);
            assertThat(summary.get("lastId").longValue()).isEqualTo(3);
        });

        server.send(aliceToken, chat, "welcome");
        JsonNode afterWelcome = onlyPendingChat(carolToken);
        assertThat(afterWelcome.get("messages").values()).containsExactly(message(4, alice, "welcome"));
        assertThat(afterWelcome.get("unread").longValue()).isEqualTo(1);
    }

    @Test
    void members_leave_only_for_themselves_and_the_last_one_out_deletes_the_chat() {
        String alice = ApiClient.randomUser("alice");
        String bob = ApiClient.randomUser("bob");
        String aliceToken = server.api().signIn(alice);
        String bobToken = server.api().signIn(bob);
        String chat = server.openChat(aliceToken, List.of(bob), "one");

        assertThat(server.api().delete("/api/chats/" + chat + "/members/" + alice, bobToken).status()).isEqualTo(403);

        assertThat(server.api().delete("/api/chats/" + chat + "/members/" + bob, bobToken).status()).isEqualTo(204);
        assertThat(ok(server.api().get("/api/chats", bobToken)).values()).isEmpty();
        assertThat(ok(server.api().get("/api/pending", bobToken)).get("chats").values()).isEmpty();
        assertThat(server.api().get("/api/chats/" + chat + "/messages", bobToken).status()).isEqualTo(404);
        // Bob was holding message 1 back; with him gone every remaining member has seen it, so it goes.
        JsonNode alicesHistory = ok(server.api().get("/api/chats/" + chat + "/messages", aliceToken));
        assertThat(alicesHistory.get("messages").values()).isEmpty();
        assertThat(alicesHistory.get("lastId").longValue()).isEqualTo(1);

        assertThat(server.api().delete("/api/chats/" + chat + "/members/" + alice, aliceToken).status()).isEqualTo(204);

        ApiClient.Response read = server.api().get("/api/chats/" + chat + "/messages", aliceToken);
        assertThat(read.status()).as(read.toString()).isEqualTo(404);
        assertThat(read.contentType()).startsWith("application/problem+json");
        assertThat(read.json().get("status").intValue()).isEqualTo(404);
        assertThat(server.api().postJson("/api/chats/" + chat + "/messages", aliceToken, Map.of("message", "anyone?")).status())
                .isEqualTo(404);
        assertThat(server.api().post("/api/chats/" + chat + "/members", bobToken).status()).isEqualTo(404);
        assertThat(ok(server.api().get("/api/chats", aliceToken)).values()).isEmpty();
        if (redis != null) {
            assertThat(redis.keysWithPrefix(prefix)).as("keys left of the deleted chat")
                    .noneMatch(key -> key.contains("{" + chat + "}"));
        }
    }

    @Test
    void a_call_without_a_token_is_refused_with_401() {
        ApiClient.Response answer = server.api().get("/api/pending", null);

        assertThat(answer.status()).isEqualTo(401);
        assertThat(answer.contentType()).startsWith("application/problem+json");
        assertThat(answer.header("WWW-Authenticate").orElse(null)).startsWith("Bearer");
    }

    // --- mailbox --------------------------------------------------------------------------------

    @Test
    void a_mailbox_gives_messages_in_delivery_order_and_keeps_them_until_they_are_acknowledged() {
        String alice = ApiClient.randomUser("alice");
        String bob = ApiClient.randomUser("bob");
        String carol = ApiClient.randomUser("carol");
        String aliceToken = server.api().signIn(alice);
        String bobToken = server.api().signIn(bob);
        String carolToken = server.api().signIn(carol);

        assertThat(server.api().postJson("/api/users/" + carol + "/mailbox", aliceToken, Map.of("message", "one")).status())
                .isEqualTo(201);
        assertThat(server.api().postJson("/api/users/" + carol + "/mailbox", bobToken, Map.of("message", "two")).status())
                .isEqualTo(201);
        assertThat(server.api().postJson("/api/users/" + carol + "/mailbox", aliceToken, Map.of("message", "three")).status())
                .isEqualTo(201);

        JsonNode firstTwo = ok(server.api().get("/api/mailbox?max=2", carolToken)).get("messages");
        assertThat(firstTwo.values()).containsExactly(message(1, alice, "one"), message(2, bob, "two"));
        assertThat(ok(server.api().get("/api/mailbox?max=2", carolToken)).get("messages")).as("reading removes nothing")
                .isEqualTo(firstTwo);

        assertThat(server.api().postJson("/api/mailbox/read", carolToken, Map.of("upTo", 2)).status()).isEqualTo(204);
        assertThat(ok(server.api().get("/api/mailbox", carolToken)).get("messages").values())
                .containsExactly(message(3, alice, "three"));
        assertThat(server.api().postJson("/api/mailbox/read", carolToken, Map.of("upTo", 3)).status()).isEqualTo(204);
        assertThat(ok(server.api().get("/api/mailbox", carolToken)).get("messages").values()).isEmpty();
        assertThat(ok(server.api().get("/api/mailbox", aliceToken)).get("messages").values()).isEmpty();
    }

    // --- presence -------------------------------------------------------------------------------

    @Test
    void a_signed_in_request_makes_a_user_online_until_the_presence_window_passes() {
        String alice = ApiClient.randomUser("alice");
        String bob = ApiClient.randomUser("bob");
        String aliceToken = server.api().signIn(alice);
        String bobToken = server.api().signIn(bob);
        server.openChat(aliceToken, List.of(bob), "hi");

        ok(server.api().get("/api/chats", aliceToken));
        assertThat(online(bobToken, "")).containsExactlyElementsOf(sorted(alice, bob));

        clock.advance(Duration.ofMinutes(14));
        assertThat(online(bobToken, "")).containsExactlyElementsOf(sorted(alice, bob));

        clock.advance(Duration.ofMinutes(2));
        assertThat(online(bobToken, "")).containsExactly(bob);
        assertThat(online(bobToken, "?within=PT20M")).containsExactlyElementsOf(sorted(alice, bob));

        ok(server.api().get("/api/pending", aliceToken));
        assertThat(online(bobToken, "")).containsExactlyElementsOf(sorted(alice, bob));
    }

    @Test
    void presence_shows_the_people_one_shares_a_chat_with_and_no_stranger() {
        String alice = ApiClient.randomUser("alice");
        String stranger = ApiClient.randomUser("stranger");
        String aliceToken = server.api().signIn(alice);
        ok(server.api().get("/api/chats", server.api().signIn(stranger)));

        assertThat(online(aliceToken, "")).containsExactly(alice);
    }

    // --- the book -------------------------------------------------------------------------------

    /** Redis in Action, figure 6.12: jason22 and jeff24 in chat 827, and jason22 has seen five of six. */
    @Test
    void the_books_scenario_leaves_jason22_having_seen_five_of_six_messages() {
        String jason = BookScenario.JASON.value();
        String jeff = BookScenario.JEFF.value();
        String chat = BookScenario.CHAT.value();
        String jasonToken = server.api().signIn(jason);
        String jeffToken = server.api().signIn(jeff);

        ApiClient.Response created = server.api().postJson("/api/chats", jeffToken,
                Map.of("members", List.of(jason), "message", "hey jason, six messages coming", "chatId", chat));
        assertThat(created.status()).as(created.toString()).isEqualTo(201);
        assertThat(created.json().get("chatId").stringValue()).isEqualTo(chat);
        for (int n = 2; n <= 6; n++) {
            String sender = n == 3 ? jasonToken : jeffToken;
            assertThat(server.send(sender, chat, "message number " + n).get("id").longValue()).isEqualTo(n);
        }
        assertThat(server.api().postJson("/api/chats/" + chat + "/read", jasonToken, Map.of("upTo", 5)).status()).isEqualTo(204);

        JsonNode pending = ok(server.api().get("/api/pending", jasonToken));
        assertThat(pending.get("chats").values()).singleElement().satisfies(entry -> {
            assertThat(entry.get("chatId").stringValue()).isEqualTo("827");
            assertThat(entry.get("unread").longValue()).isEqualTo(1);
            assertThat(entry.get("gap").booleanValue()).isFalse();
            assertThat(entry.get("messages").values()).containsExactly(message(6, jeff, "message number 6"));
        });
        assertThat(ok(server.api().get("/api/chats", jasonToken)).values()).singleElement().satisfies(summary -> {
            assertThat(strings(summary.get("members"))).containsExactly("jason22", "jeff24");
            assertThat(summary.get("cursor").longValue()).isEqualTo(5);
            assertThat(summary.get("lastId").longValue()).isEqualTo(6);
            assertThat(summary.get("unread").longValue()).isEqualTo(1);
        });

        assertThat(server.api().postJson("/api/users/" + jason + "/mailbox", jeffToken,
                Map.of("message", "psst, a direct message"))
                .status()).isEqualTo(201);
        assertThat(ok(server.api().get("/api/mailbox?max=10", jasonToken)).get("messages").values())
                .containsExactly(message(1, jeff, "psst, a direct message"));
        assertThat(server.api().postJson("/api/mailbox/read", jasonToken, Map.of("upTo", 1)).status()).isEqualTo(204);
        assertThat(ok(server.api().get("/api/mailbox", jasonToken)).get("messages").values()).isEmpty();
    }

    // --- operations -----------------------------------------------------------------------------

    @Test
    void health_is_up_names_the_store_and_tells_the_poms_version() {
        ApiClient.Response health = server.api().get("/health", null);

        assertThat(health.status()).as(health.toString()).isEqualTo(200);
        assertThat(health.json().get("status").stringValue()).isEqualTo("up");
        assertThat(health.json().get("version").stringValue()).isEqualTo(VersionTest.pomVersion());
        String named = health.json().get("store").stringValue();
        if (store.isRedis()) {
            assertThat(named).startsWith(store.healthName());
        } else {
            assertThat(named).isEqualTo(store.healthName());
        }
    }

    @Test
    void metrics_count_every_message_sent_first_messages_included() {
        assertThat(messagesSent()).isZero();
        String aliceToken = server.api().signIn(ApiClient.randomUser("alice"));
        String chat = server.openChat(aliceToken, List.of(ApiClient.randomUser("bob")), "one");
        server.send(aliceToken, chat, "two");

        assertThat(messagesSent()).isEqualTo(2.0);
    }

    // --- helpers --------------------------------------------------------------------------------

    /** The caller's pending answer, which in these tests always holds exactly one chat. */
    private JsonNode onlyPendingChat(String token) {
        JsonNode chats = ok(server.api().get("/api/pending", token)).get("chats");
        assertThat(chats.values()).hasSize(1);
        return chats.get(0);
    }

    private List<String> online(String token, String query) {
        return strings(ok(server.api().get("/api/presence" + query, token)).get("online"));
    }

    private double messagesSent() {
        ApiClient.Response metrics = server.api().get("/metrics", null);
        assertThat(metrics.status()).isEqualTo(200);
        Matcher line = MESSAGES_SENT.matcher(metrics.body());
        assertThat(line.find()).as("a pigeonhole_messages_sent_total line in:\n" + metrics.body()).isTrue();
        return Double.parseDouble(line.group(1));
    }

    private static JsonNode ok(ApiClient.Response answer) {
        assertThat(answer.status()).as(answer.toString()).isEqualTo(200);
        assertThat(answer.contentType()).startsWith("application/json");
        return answer.json();
    }

    /** A chat message as the server shows it; the clock stands still unless a test moves it. */
    private JsonNode message(long id, String sender, String text) {
        return ApiClient.json(Map.of("id", id, "ts", timestamp(), "sender", sender, "message", text));
    }

    private String timestamp() {
        assertThat(clock.instant()).as("message times in these tests are taken at the start").isEqualTo(START);
        return START_TS;
    }

    private static List<Long> ids(JsonNode messages) {
        return messages.values().stream().map(message -> message.get("id").longValue()).toList();
    }

    private static List<String> strings(JsonNode array) {
        assertThat(array.isArray()).as("%s is an array", array).isTrue();
        return array.values().stream().map(JsonNode::stringValue).toList();
    }

    private static List<String> sorted(String... users) {
        return Stream.of(users).sorted().toList();
    }
}
