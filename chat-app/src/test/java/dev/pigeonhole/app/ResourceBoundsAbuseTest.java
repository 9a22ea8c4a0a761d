package dev.pigeonhole.app;

import dev.pigeonhole.adapter.http.ApiClient;
import dev.pigeonhole.domain.model.ChatId;
import dev.pigeonhole.domain.model.UserId;
import dev.pigeonhole.domain.port.in.chat.CreateChat;
import dev.pigeonhole.domain.port.in.chat.SendMessage;
import dev.pigeonhole.testsupport.redis.RedisServers;
import dev.pigeonhole.testsupport.redis.RedisTarget;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;
import tools.jackson.databind.JsonNode;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Four ways a careless or hostile user made the server hold more than it should, each on every
 * store, with the figures it prints: a flood of sends, a fetch of many deep chats whose text grows
 * in JSON, a chat's memory of idempotency keys, and a mailbox whose answer is lost on the way.
 */
@ParameterizedClass(name = "{0}")
@EnumSource(StoreUnderTest.class)
@Timeout(180)
class ResourceBoundsAbuseTest {

    private final StoreUnderTest store;
    @RegisterExtension
    final RunningServer server = RunningServer.startedByTheTest();

    ResourceBoundsAbuseTest(StoreUnderTest store) {
        this.store = store;
    }

    @Test
    void six_hundred_rapid_sends_are_held_to_the_default_rate_and_the_refused_ones_store_nothing() {
        server.start(store.config());
        String alice = ApiClient.randomUser("alice");
        String token = server.api().signIn(alice);
        String chat = server.openChat(token, List.of(), "go");

        int stored = 0;
        int refused = 0;
        long started = System.nanoTime();
        for (int send = 0; send < 600; send++) {
            ApiClient.Response answer = server.api().postJson("/api/chats/" + chat + "/messages", token,
                    Map.of("message", "flood " + send));
            if (answer.status() == 201) {
                stored++;
            } else {
                assertThat(answer.status()).as(answer.body()).isEqualTo(429);
                assertThat(answer.header("Retry-After")).isPresent();
                refused++;
            }
        }
        double seconds = (System.nanoTime() - started) / 1e9;

        System.out.printf("[bounds] %s: 600 rapid sends in %.1f s: %d stored, %d refused with 429%n",
                store, seconds, stored, refused);
        // 20 at once, then one every 250 ms: what the clock allowed, and no more.
        assertThat(stored).isLessThanOrEqualTo(20 + (int) Math.ceil(seconds * 4) + 1);
        assertThat(server.api().get("/api/chats/" + chat + "/messages?after=0&limit=1", token).json().get("lastId").longValue())
                .as("a refused send stored nothing").isEqualTo(1 + stored);
    }

    @Test
    void pending_for_ten_chats_two_megabytes_deep_stays_within_its_budget() {
        server.start(TestConfigs.unthrottled(store.config()));
        UserId alice = UserId.of(ApiClient.randomUser("alice"));
        String bob = ApiClient.randomUser("bob");
        // Quotes and backslashes: each is one byte of text and two in JSON, the worst case now that
        // control characters, six bytes of JSON each, are refused.
        String crafted = "\"\\".repeat(2_048);
        for (int c = 0; c < 10; c++) {
            ChatId chat = server.app().createChat().create(new CreateChat.Command(alice, Set.of(UserId.of(bob)),
                    Optional.empty(), "deep chat " + c)).chat();
            for (int m = 0; m < 512; m++) {
                server.app().sendMessage().send(new SendMessage.Command(chat, alice, crafted));
            }
        }

        ApiClient.Response pending = server.api().get("/api/pending", server.api().signIn(bob));

        int messages = 0;
        long textBytes = 0;
        for (JsonNode chat : pending.json().get("chats").values()) {
            assertThat(chat.get("more").booleanValue()).as("every chat was cut short").isTrue();
            for (JsonNode message : chat.get("messages").values()) {
                messages++;
                textBytes += message.get("message").stringValue().getBytes(StandardCharsets.UTF_8).length;
            }
        }
        System.out.printf("[bounds] %s: pending for 10 chats of 2 MiB each: %d bytes of JSON, %d messages, %d bytes"
                + " of text%n", store, pending.body().getBytes(StandardCharsets.UTF_8).length, messages, textBytes);
        assertThat(messages).isLessThanOrEqualTo(1_000);
        assertThat(textBytes).isLessThanOrEqualTo(1L << 20);
        assertThat(pending.body().length()).as("two bytes of JSON per byte of this text, and a little more")
                .isLessThan(9 << 18);
    }

    @Test
    void a_chats_memory_of_keys_follows_its_retention() {
        RedisTarget redis = store.isRedis() ? RedisServers.single() : null;
        String prefix = redis == null ? null : redis.newPrefix();
        AppConfig config = TestConfigs.unthrottled(redis == null ? store.config() : store.on(redis, prefix));
        server.start(config.withLimits(config.limits().withMaxRetained(100)));
        String alice = ApiClient.randomUser("alice");
        String token = server.api().signIn(alice);
        String chat = server.openChat(token, List.of(), "go");
        String kilobyte = "k".repeat(1_024);

        for (int send = 0; send < 400; send++) {
            assertThat(server.api().postJson("/api/chats/" + chat + "/messages", token,
                    Map.of("message", kilobyte, "idempotencyKey", "key-" + send)).status()).isEqualTo(201);
        }

        if (redis != null) {
            long bytes = 0;
            int remembered = 0;
            for (String key : redis.keysWithPrefix(prefix + "chat:{" + chat + "}")) {
                bytes += ((Number) redis.command(redis.masters().getFirst(), "MEMORY", "USAGE", key)).longValue();
                if (key.endsWith(":sent")) {
                    remembered = ((Number) redis.command(redis.masters().getFirst(), "HLEN", key)).intValue();
                }
            }
            System.out.printf("[bounds] %s: a chat after 400 keyed 1 KiB sends, retention 100: %d bytes in its"
                    + " keys, %d keys remembered%n", store, bytes, remembered);
            assertThat(remembered).isEqualTo(100);
            assertThat(bytes).as("100 messages of 1 KiB and 100 small records").isLessThan(200_000);
        }
        assertThat(server.api().postJson("/api/chats/" + chat + "/messages", token,
                Map.of("message", kilobyte, "idempotencyKey", "key-399")).json().get("id").longValue())
                .as("a recent key still answers its first id").isEqualTo(401);
        assertThat(server.api().postJson("/api/chats/" + chat + "/messages", token,
                Map.of("message", kilobyte, "idempotencyKey", "key-0")).json().get("id").longValue())
                .as("the oldest key was forgotten with the 300 before the newest 100: a new message").isEqualTo(402);
    }

    @Test
    void a_mailbox_whose_answer_is_lost_on_the_way_loses_nothing() {
        server.start(store.config());
        String alice = ApiClient.randomUser("alice");
        String bob = ApiClient.randomUser("bob");
        String aliceToken = server.api().signIn(alice);
        String bobToken = server.api().signIn(bob);
        for (int m = 1; m <= 3; m++) {
            server.api().postJson("/api/users/" + bob + "/mailbox", aliceToken, Map.of("message", "direct " + m));
        }

        server.api().get("/api/mailbox?max=10", bobToken); // the answer that never arrived
        JsonNode again = server.api().get("/api/mailbox?max=10", bobToken).json().get("messages");

        System.out.printf("[bounds] %s: after a lost answer the mailbox still holds %d of 3 messages%n", store,
                again.size());
        assertThat(again.values()).extracting(message -> message.get("message").stringValue())
                .containsExactly("direct 1", "direct 2", "direct 3");
        assertThat(server.api().postJson("/api/mailbox/read", bobToken, Map.of("upTo", again.get(2).get("id").longValue()))
                .status()).isEqualTo(204);
        assertThat(server.api().get("/api/mailbox?max=10", bobToken).json().get("messages").values()).isEmpty();
    }
}
