package dev.pigeonhole.adapter.redis;

import dev.pigeonhole.domain.model.ChatId;
import dev.pigeonhole.domain.model.NotDurableException;
import dev.pigeonhole.domain.model.UserId;
import dev.pigeonhole.domain.model.chat.IdempotencyKey;
import dev.pigeonhole.domain.model.chat.Message;
import dev.pigeonhole.domain.model.limits.Limits;
import dev.pigeonhole.domain.model.limits.RateLimit;
import dev.pigeonhole.domain.port.out.Chats;
import dev.pigeonhole.testsupport.LoopbackPorts;
import dev.pigeonhole.testsupport.redis.LocalRedisServer;
import org.junit.jupiter.api.Test;
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
 * Writes that wait for a replica, against a real primary and a real replica, on every client: a
 * send is answered once the replica holds it, refused as not durable (with the id it was given)
 * while the replica stalls, answered with that same message by a retry under the same key (from
 * another server instance) once it goes on; and after a failover to a replica that had stopped
 * following, every send that was answered is there and the refused ones are the ones missing.
 *
 * <p>A replica stalls when its process is frozen: still connected, so its primary counts it, but
 * acknowledging nothing. It stops following when pointed at a port where nothing listens: it
 * keeps what it has and applies nothing more, as a replica cut off from its primary does.
 */
@Timeout(120)
class DurableWritesTest {

    private static final Durability ONE_REPLICA = new Durability(1, Duration.ofMillis(300));
    private static final Instant AT = Instant.parse("2026-11-27T12:00:00Z");

    @ParameterizedTest
    @EnumSource(RedisClientKind.class)
    void a_send_waits_for_the_replica_and_is_refused_with_its_id_while_the_replica_stalls(RedisClientKind client) {
        try (LocalRedisServer primary = LocalRedisServer.start();
             LocalRedisServer replica = LocalRedisServer.startReplicaOf(primary);
             Stores stores = new Stores(client, primary, ONE_REPLICA);
             Stores otherInstance = stores.alsoOn(primary, ONE_REPLICA)) {
            Message confirmed = stores.chats.send(stores.chat, stores.alice, "kept", AT);
            assertThat(stores.idsOnReplica(replica)).contains(confirmed.id());

            replica.freeze();
            IdempotencyKey key = IdempotencyKey.of("k-" + UUID.randomUUID());
            NotDurableException refused = catchThrowableOfType(NotDurableException.class,
                    () -> stores.chats.send(stores.chat, stores.alice, "held back", AT, Optional.of(key), RateLimit.NONE));

            assertThat(refused).as("a send the stalled replica did not confirm").isNotNull();
            assertThat(refused.messageId()).hasValue(confirmed.id() + 1);
            assertThat(refused).hasMessageContaining("fewer than 1 replica confirmed it within 300 ms");
            assertThat(stores.idsOnPrimary()).as("the write stands on the primary").contains(confirmed.id() + 1);
            // Retried through another server, whose connection never wrote the message: WAIT is
            // documented to count its own connection's writes, so the replay writes too.
            NotDurableException again = catchThrowableOfType(NotDurableException.class,
                    () -> otherInstance.chats.send(stores.chat, stores.alice, "held back", AT, Optional.of(key),
                            RateLimit.NONE));
            assertThat(again).as("the retry while the replica still stalls").isNotNull();
            assertThat(again.messageId()).as("the retry names the same message").hasValue(confirmed.id() + 1);

            replica.thaw();
            Message retried = otherInstance.chats.send(stores.chat, stores.alice, "held back", AT, Optional.of(key),
                    RateLimit.NONE);
            assertThat(retried.id()).isEqualTo(confirmed.id() + 1);
            assertThat(stores.idsOnReplica(replica)).as("one message, however often it was asked for")
                    .containsExactly(1L, confirmed.id(), confirmed.id() + 1);
        }
    }

    /** The stores' choice, the same on every client: one is enough. */
    @Test
    void without_durability_a_send_is_answered_when_the_primary_holds_it() {
        try (LocalRedisServer primary = LocalRedisServer.start();
             LocalRedisServer replica = LocalRedisServer.startReplicaOf(primary);
             Stores stores = new Stores(RedisClientKind.LETTUCE, primary, Durability.NONE)) {
            awaitCaughtUp(replica, primary);
            stopFollowing(replica);

            Message sent = stores.chats.send(stores.chat, stores.alice, "answered at once", AT);

            assertThat(stores.idsOnPrimary()).contains(sent.id());
            assertThat(stores.idsOnReplica(replica)).doesNotContain(sent.id());
        }
    }

    @ParameterizedTest
    @EnumSource(RedisClientKind.class)
    void after_a_failover_to_a_replica_that_stopped_following_every_answered_send_is_there(RedisClientKind client) {
        try (LocalRedisServer primary = LocalRedisServer.start();
             LocalRedisServer replica = LocalRedisServer.startReplicaOf(primary);
             Stores stores = new Stores(client, primary, ONE_REPLICA)) {
            List<Long> answered = new ArrayList<>();
            List<Long> refused = new ArrayList<>();
            // Few refused: each waits out the timeout.
            for (int i = 0; i < 13; i++) {
                if (i == 10) {
                    stopFollowing(replica);
                }
                try {
                    answered.add(stores.chats.send(stores.chat, stores.alice, "m" + i, AT).id());
                } catch (NotDurableException e) {
                    refused.add(e.messageId().orElseThrow());
                }
            }
            assertThat(answered).hasSize(10);
            assertThat(refused).hasSize(3);

            primary.stop();
            replica.target().admin("REPLICAOF", "NO", "ONE");

            try (Stores promoted = stores.alsoOn(replica, Durability.NONE)) {
                List<Long> kept = promoted.idsOnPrimary();
                assertThat(kept).as("every send that was answered").containsAll(answered);
                assertThat(kept).as("the sends refused as not durable: lost, as the refusal warned")
                        .doesNotContainAnyElementsOf(refused);
            }
        }
    }

    private static void stopFollowing(LocalRedisServer replica) {
        replica.target().admin("REPLICAOF", "127.0.0.1", Integer.toString(LoopbackPorts.unused()));
    }

    /** Waits until the replica has applied everything the primary has written so far. */
    private static void awaitCaughtUp(LocalRedisServer replica, LocalRedisServer primary) {
        long written = offset(primary.target().admin("INFO", "replication"), "master_repl_offset:");
        await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(10))
                .until(() -> offset(replica.target().admin("INFO", "replication"), "slave_repl_offset:") >= written);
    }

    private static long offset(String info, String field) {
        return info.lines().filter(line -> line.startsWith(field))
                .mapToLong(line -> Long.parseLong(line.substring(field.length()).strip())).findFirst().orElse(-1);
    }

    /** A chat store on one server, with one chat that alice and bob are in. */
    private static final class Stores implements AutoCloseable {

        private final RedisClientKind client;
        private final KeyLayout keys;
        private final RedisDriver driver;
        private final Chats chats;
        private final ChatId chat;
        private final UserId alice;

        Stores(RedisClientKind client, LocalRedisServer server, Durability durability) {
            this(client, server, durability, KeyLayout.tagged(server.target().newPrefix()),
                    ChatId.of("durable-" + UUID.randomUUID().toString().substring(0, 8)),
                    UserId.of("alice" + UUID.randomUUID().toString().substring(0, 6)), true);
        }

        private Stores(RedisClientKind client, LocalRedisServer server, Durability durability, KeyLayout keys,
                       ChatId chat, UserId alice, boolean open) {
            this.client = client;
            this.keys = keys;
            this.chat = chat;
            this.alice = alice;
            this.driver = Drivers.open(client, settings(server.target()));
            Functions.install(driver);
            this.chats = new RedisChats(driver, keys, Limits.DEFAULTS, PublishMode.CLASSIC, durability);
            if (open) {
                chats.open(chat, alice, Set.of(alice, UserId.of("bob" + alice.value().substring(5))), "first", AT);
            }
        }

        /** The same chat, through a driver of its own: another server instance, or a replica made the primary. */
        Stores alsoOn(LocalRedisServer server, Durability durability) {
            return new Stores(client, server, durability, keys, chat, alice, false);
        }

        List<Long> idsOnPrimary() {
            return chats.read(alice, chat, 0, 100).messages().stream().map(Message::id).toList();
        }

        List<Long> idsOnReplica(LocalRedisServer replica) {
            // Through Jedis whatever the client under test: GLIDE refuses to connect to a replica alone.
            try (RedisDriver reader = Drivers.open(RedisClientKind.JEDIS, settings(replica.target()))) {
                return new RedisChats(reader, keys, Limits.DEFAULTS, PublishMode.CLASSIC)
                        .read(alice, chat, 0, 100).messages().stream().map(Message::id).toList();
            }
        }

        @Override
        public void close() {
            driver.close();
        }
    }
}
