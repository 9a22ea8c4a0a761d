package dev.pigeonhole.adapter.redis;

import dev.pigeonhole.domain.model.ChatId;
import dev.pigeonhole.domain.model.NotDurableException;
import dev.pigeonhole.domain.model.StoreUnavailableException;
import dev.pigeonhole.domain.model.UserId;
import dev.pigeonhole.domain.model.chat.IdempotencyKey;
import dev.pigeonhole.domain.model.chat.Message;
import dev.pigeonhole.domain.model.limits.Limits;
import dev.pigeonhole.domain.model.limits.RateLimit;
import dev.pigeonhole.domain.port.out.Chats;
import dev.pigeonhole.testsupport.redis.LocalRedisCluster;
import dev.pigeonhole.testsupport.redis.RedisNode;
import dev.pigeonhole.testsupport.redis.RedisTarget;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

import static dev.pigeonhole.adapter.redis.RedisTestSettings.settings;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.awaitility.Awaitility.await;

/**
 * Writes that wait for a replica on a cluster, on every client: the WAIT goes to the node that
 * ran the call, so a send is confirmed by the replica of its chat's own primary, refused while
 * that replica stalls, confirmed again (the same message) once it goes on; and every send that
 * was answered is still there after the replica takes its primary's place.
 */
@Timeout(180)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DurableClusterWritesTest {

    private static final Durability ONE_REPLICA = new Durability(1, Duration.ofMillis(300));
    private static final Instant AT = Instant.parse("2026-11-27T12:00:00Z");

    private LocalRedisCluster cluster;
    /** The one primary with a replica, which every test's chat lives on; swapped by each failover. */
    private RedisNode primary;
    private RedisNode replica;

    @BeforeAll
    void start() {
        cluster = LocalRedisCluster.start();
        primary = cluster.target().masters().getFirst();
        replica = cluster.addReplicaOf(primary);
    }

    @AfterAll
    void stop() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @ParameterizedTest
    @EnumSource(RedisClientKind.class)
    void a_send_waits_for_the_replica_of_its_own_primary_and_survives_the_replicas_takeover(RedisClientKind client) {
        RedisTarget redis = cluster.target();
        KeyLayout keys = KeyLayout.tagged(redis.newPrefix());
        ChatId chat = aChatServedBy(primary, redis, keys);
        UserId alice = UserId.of("alice" + UUID.randomUUID().toString().substring(0, 6));
        try (RedisDriver driver = Drivers.open(client, settings(redis))) {
            Functions.install(driver);
            Chats chats = new RedisChats(driver, keys, Limits.DEFAULTS, PublishMode.of(driver, false), ONE_REPLICA);
            chats.open(chat, alice, Set.of(alice), "first", AT);
            List<Long> answered = new ArrayList<>(List.of(1L));
            for (int i = 0; i < 5; i++) {
                answered.add(chats.send(chat, alice, "m" + i, AT).id());
            }

            IdempotencyKey key = IdempotencyKey.of("k-" + UUID.randomUUID());
            cluster.freeze(replica);
            NotDurableException refused;
            try {
                refused = catchThrowableOfType(NotDurableException.class,
                        () -> chats.send(chat, alice, "held back", AT, Optional.of(key), RateLimit.NONE));
            } finally {
                cluster.thaw(replica);
            }
            assertThat(refused).as("a send while the replica of %s stalls", primary).isNotNull();
            Message retried = chats.send(chat, alice, "held back", AT, Optional.of(key), RateLimit.NONE);
            assertThat(retried.id()).isEqualTo(refused.messageId().orElseThrow());
            answered.add(retried.id());

            cluster.failOver(replica, primary);
            RedisNode former = primary;
            primary = replica;
            replica = former;
            // The client finds the new primary, whose new replica counts once it has synced.
            await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(50))
                    .ignoreExceptionsMatching(e -> e instanceof StoreUnavailableException || e instanceof NotDurableException)
                    .until(() -> answered.add(chats.send(chat, alice, "after", AT).id()));

            List<Long> kept = chats.read(alice, chat, 0, 100).messages().stream().map(Message::id).toList();
            assertThat(kept).as("every answered send, after the failover").containsAll(answered);
        }
    }

    private static ChatId aChatServedBy(RedisNode node, RedisTarget redis, KeyLayout keys) {
        while (true) {
            ChatId chat = ChatId.of("durable-" + UUID.randomUUID().toString().substring(0, 8));
            if (redis.masterOf(keys.chat(chat).all().getFirst()).equals(node)) {
                return chat;
            }
        }
    }
}
