package dev.pigeonhole.adapter.redis;

import dev.pigeonhole.domain.model.ChatId;
import dev.pigeonhole.domain.model.StoreUnavailableException;
import dev.pigeonhole.domain.model.UserId;
import dev.pigeonhole.domain.model.limits.Limits;
import dev.pigeonhole.domain.port.out.Chats;
import dev.pigeonhole.tck.StoreFixture;
import dev.pigeonhole.testsupport.redis.LocalRedisCluster;
import dev.pigeonhole.testsupport.redis.RedisNode;
import dev.pigeonhole.testsupport.redis.RedisServers;
import dev.pigeonhole.testsupport.redis.RedisTarget;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Sends keep going while the nodes lose the adapter's library: each call that finds its node
 * without it loads it and runs once more, so no send fails and none runs twice (the ids are
 * exactly 1 to the last, each handed out once).
 */
@Timeout(120)
class LibraryLossUnderLoadTest {

    private static final int SENDERS = 3;
    /** A bound on the load, far beyond what the test waits for: the senders stop when told. */
    private static final int SENDS_AT_MOST = 20_000;
    private static final int STEP = 100;
    private static final Instant AT = Instant.parse("2026-11-27T10:00:00Z");

    @ParameterizedTest
    @EnumSource(RedisClientKind.class)
    void a_single_node_flushed_of_every_function_under_load(RedisClientKind client) throws Exception {
        RedisTarget redis = RedisServers.single();
        try (Load load = new Load(redis, client)) {
            for (int round = 0; round < 3; round++) {
                load.awaitMoreSends();
                redis.admin("FUNCTION", "FLUSH", "SYNC");
            }
            load.awaitMoreSends();
            load.assertEverySendLandedOnce();
        }
    }

    @ParameterizedTest
    @EnumSource(RedisClientKind.class)
    void a_cluster_whose_primaries_lose_it_under_load_and_whose_new_primary_lacks_it(RedisClientKind client)
            throws Exception {
        try (LocalRedisCluster cluster = LocalRedisCluster.start()) {
            RedisTarget redis = cluster.target();
            try (Load load = new Load(redis, client)) {
                RedisNode master = redis.masterOf(load.chatKey());
                RedisNode replica = cluster.addReplicaOf(master);
                load.awaitMoreSends();
                for (RedisNode node : redis.masters()) {
                    redis.command(node, "FUNCTION", "FLUSH", "SYNC");
                }
                load.awaitMoreSends();
                load.assertEverySendLandedOnce();

                // A failover is an outage of its own, which the caller sees as one (and the
                // library's loss has no part in): wait for the chat to be served again, then take
                // the library from the new primary, as if it had been promoted without it.
                cluster.failOver(replica, master);
                await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(50))
                        .ignoreException(StoreUnavailableException.class)
                        .until(() -> load.sendOne() > 0);
                redis.command(replica, "FUNCTION", "FLUSH", "SYNC");

                assertThat(load.sendOne()).as("the first send after the new primary lost the library").isPositive();
                assertThat(redis.command(replica, "FCALL_RO", "pigeonhole_version", "0"))
                        .isEqualTo((long) Functions.VERSION);
            }
        }
    }

    /** One chat, SENDERS threads sending into it until told to stop. */
    private static final class Load implements AutoCloseable {

        private final StoreFixture store;
        private final KeyLayout keys;
        private final ChatId chat = ChatId.of("reload-" + UUID.randomUUID().toString().substring(0, 8));
        private final List<UserId> senders = new ArrayList<>();
        private final ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor();
        private final ConcurrentLinkedQueue<Long> ids = new ConcurrentLinkedQueue<>();
        private final AtomicInteger sent = new AtomicInteger();
        private volatile boolean stop;
        private final List<Future<?>> running = new ArrayList<>();

        Load(RedisTarget redis, RedisClientKind client) {
            keys = KeyLayout.tagged(redis.newPrefix());
            store = RedisStoreFixture.open(redis, client, keys, Limits.DEFAULTS, driver -> driver);
            for (int i = 0; i < SENDERS; i++) {
                senders.add(UserId.of("s" + i + UUID.randomUUID().toString().substring(0, 6)));
            }
            Chats chats = store.chats();
            chats.open(chat, senders.getFirst(), Set.copyOf(senders), "first", AT);
            for (UserId sender : senders) {
                running.add(threads.submit(() -> {
                    for (int i = 0; !stop && i < SENDS_AT_MOST; i++) {
                        ids.add(chats.send(chat, sender, "m" + i, AT).id());
                        sent.incrementAndGet();
                    }
                    return null;
                }));
            }
        }

        /** One more send, after the load: its id. */
        long sendOne() {
            return store.chats().send(chat, senders.getFirst(), "one more", AT).id();
        }

        String chatKey() {
            return keys.chat(chat).all().getFirst();
        }

        /**
         * Waits until STEP more sends have come back, so that what happened before went on under
         * load and what follows lands under load too. A sender that failed fails this at once.
         */
        void awaitMoreSends() {
            int target = sent.get() + STEP;
            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(1))
                    .until(() -> sent.get() >= target || running.stream().anyMatch(Future::isDone));
            assertThat(running).as("senders still running").noneMatch(Future::isDone);
        }

        void assertEverySendLandedOnce() throws Exception {
            stop = true;
            for (Future<?> sender : running) {
                sender.get();
            }
            assertThat(ids).doesNotHaveDuplicates()
                    .containsExactlyInAnyOrderElementsOf(LongStream.rangeClosed(2, 1 + sent.get()).boxed().toList());
        }

        @Override
        public void close() {
            threads.shutdownNow();
            store.close();
        }
    }
}
