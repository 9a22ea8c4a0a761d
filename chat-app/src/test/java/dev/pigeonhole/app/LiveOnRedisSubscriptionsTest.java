package dev.pigeonhole.app;

import dev.pigeonhole.adapter.http.ApiClient;
import dev.pigeonhole.adapter.http.LiveClient;
import dev.pigeonhole.adapter.http.ServerMetrics;
import dev.pigeonhole.testsupport.redis.RedisNode;
import dev.pigeonhole.testsupport.redis.RedisServers;
import dev.pigeonhole.testsupport.redis.RedisTarget;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * However many sockets follow a chat, a server process subscribes to its channel upstream once
 * (and to presence once, and to each connected user's own channel once), and lets go of each when
 * the last socket that wanted it closes. Redis
 * is asked directly, not only the server's own gauge: {@code PUBSUB NUMSUB} on a single node,
 * {@code PUBSUB SHARDNUMSUB} on the master that owns each channel's slot on a cluster.
 *
 * <p>A single node gets the full thousand sockets in ten chats; the cluster, a hundred, since
 * what it adds is where each subscription lands, not how many sockets share it.
 */
@ParameterizedClass(name = "{0}")
@EnumSource(LiveOnRedisSubscriptionsTest.Setup.class)
class LiveOnRedisSubscriptionsTest {

    enum Setup {
        SINGLE_NODE_THROUGH_LETTUCE(StoreUnderTest.REDIS_THROUGH_LETTUCE, false, 100),
        SINGLE_NODE_THROUGH_JEDIS(StoreUnderTest.REDIS_THROUGH_JEDIS, false, 100),
        SINGLE_NODE_THROUGH_REDISSON(StoreUnderTest.REDIS_THROUGH_REDISSON, false, 100),
        SINGLE_NODE_THROUGH_GLIDE(StoreUnderTest.REDIS_THROUGH_GLIDE, false, 100),
        CLUSTER_THROUGH_LETTUCE(StoreUnderTest.REDIS_THROUGH_LETTUCE, true, 10),
        CLUSTER_THROUGH_JEDIS(StoreUnderTest.REDIS_THROUGH_JEDIS, true, 10),
        CLUSTER_THROUGH_REDISSON(StoreUnderTest.REDIS_THROUGH_REDISSON, true, 10),
        CLUSTER_THROUGH_GLIDE(StoreUnderTest.REDIS_THROUGH_GLIDE, true, 10);

        final StoreUnderTest store;
        final boolean cluster;
        final int usersPerChat;

        Setup(StoreUnderTest store, boolean cluster, int usersPerChat) {
            this.store = store;
            this.cluster = cluster;
            this.usersPerChat = usersPerChat;
        }
    }

    private static final int CHATS = 10;
    private static final Duration PATIENCE = Duration.ofSeconds(30);

    private final Setup setup;
    @RegisterExtension
    final RunningServer server = RunningServer.on(this::config);
    private RedisTarget redis;
    private String prefix;

    LiveOnRedisSubscriptionsTest(Setup setup) {
        this.setup = setup;
    }

    private AppConfig config() {
        redis = setup.cluster ? RedisServers.cluster() : RedisServers.single();
        prefix = redis.newPrefix();
        return setup.store.on(redis, prefix);
    }

    @Test
    void each_chat_is_subscribed_upstream_once_however_many_sockets_follow_it_and_let_go_when_the_last_one_closes()
            throws Exception {
        long started = System.nanoTime();
        try (ChatCrowd crowd = ChatCrowd.create(server.api(), CHATS, setup.usersPerChat)) {
            long created = System.nanoTime();
            String subscribe = setup.cluster ? "ssubscribe" : "subscribe";
            long subscribesBefore = redis.commandCalls(subscribe);
            crowd.connectAll(server);
            long connected = System.nanoTime();
            long subscribes = redis.commandCalls(subscribe) - subscribesBefore;
            List<String> shared = new ArrayList<>();
            crowd.chats().forEach(chat -> shared.add(prefix + "chat:{" + chat.id() + "}"));
            shared.add(prefix + "presence");
            List<String> channels = new ArrayList<>(shared);
            crowd.chats().forEach(chat -> chat.users().forEach(user -> channels.add(prefix + "user:{" + user + "}")));
            int users = CHATS * setup.usersPerChat;
            assertThat(crowd.clients()).hasSize(users);

            Subscribers subscribed = subscribers(channels);
            assertThat(subscribed.where()).as("subscribers of each channel where they belong")
                    .allSatisfy((channel, count) -> assertThat(count).as(channel).isEqualTo(1L));
            assertThat(subscribed.elsewhere()).as("subscribers of each channel anywhere else")
                    .allSatisfy((channel, count) -> assertThat(count).as(channel).isZero());
            assertThat(ServerMetrics.upstreamSubscriptions(server.api()))
                    .as("the server's own count: the chats, presence and each user's own channel")
                    .isEqualTo(CHATS + 1.0 + users);
            // A connection subscribing twice still counts once in NUMSUB, so count the commands too.
            // GLIDE gathers the channels asked for at once into one command, so on it the count
            // can only be bounded: never more commands than channels.
            if (setup.store == StoreUnderTest.REDIS_THROUGH_GLIDE) {
                assertThat(subscribes).as(subscribe.toUpperCase() + " commands Redis served while the sockets opened")
                        .isBetween(1L, (long) CHATS + 1 + users);
            } else {
                assertThat(subscribes).as(subscribe.toUpperCase() + " commands Redis served while the sockets opened")
                        .isEqualTo(CHATS + 1 + users);
            }

            // The one subscription of a chat reaches every socket that follows it.
            for (ChatCrowd.Chat chat : crowd.chats()) {
                ApiClient.Response sent = server.api().postJson("/api/chats/" + chat.id() + "/messages", chat.creatorToken(),
                        Map.of("message", "to all of " + chat.id()));
                assertThat(sent.status()).as(sent.toString()).isEqualTo(201);
            }
            for (ChatCrowd.Chat chat : crowd.chats()) {
                for (LiveClient client : crowd.clientsOf(chat)) {
                    client.next(event -> event.get("type").stringValue().equals("message"));
                    List<String> expected = client == crowd.creatorOf(chat)
                            ? List.of("2 to all of " + chat.id())
                            : List.of("1 hello", "2 to all of " + chat.id());
                    assertThat(client.messages(chat.id())).isEqualTo(expected);
                }
            }
            long fannedOut = System.nanoTime();

            // Down to one socket per chat, every subscription stays and still delivers.
            List<LiveClient> survivors = new ArrayList<>();
            for (ChatCrowd.Chat chat : crowd.chats()) {
                List<LiveClient> sockets = crowd.clientsOf(chat);
                survivors.add(sockets.getLast());
                sockets.subList(0, sockets.size() - 1).forEach(LiveClient::close);
            }
            await().atMost(PATIENCE).until(() -> ServerMetrics.liveSessions(server.api()) == CHATS);
            // The users who left let go of their own channels one unsubscribe at a time, after their sockets are gone.
            await().atMost(PATIENCE).until(() -> ServerMetrics.upstreamSubscriptions(server.api()) == CHATS + 1.0 + CHATS);
            assertThat(subscribers(shared).where()).as("subscribers with one socket left per chat")
                    .allSatisfy((channel, count) -> assertThat(count).as(channel).isEqualTo(1L));
            for (int i = 0; i < CHATS; i++) {
                ChatCrowd.Chat chat = crowd.chats().get(i);
                ApiClient.Response sent = server.api().postJson("/api/chats/" + chat.id() + "/messages", chat.creatorToken(),
                        Map.of("message", "to the last one"));
                assertThat(sent.status()).as(sent.toString()).isEqualTo(201);
                LiveClient last = survivors.get(i);
                last.next(event -> event.get("type").stringValue().equals("message")
                        && event.get("message").get("id").longValue() == 3);
                assertThat(last.messages(chat.id())).last().isEqualTo("3 to the last one");
            }

            crowd.close();
            await().atMost(PATIENCE).until(() -> ServerMetrics.liveSessions(server.api()) == 0.0);
            await().atMost(PATIENCE).until(() -> ServerMetrics.upstreamSubscriptions(server.api()) == 0.0);
            await().atMost(PATIENCE).until(() -> subscribers(channels).total() == 0L);
            System.out.printf("%s: %d sockets in %d chats held %s upstream subscriptions (gauge %s, %d %s); setup %d ms, "
                            + "connecting %d ms, fan-out %d ms, all gone %d ms after closing%n",
                    setup, users, CHATS, subscribed.where().size(), CHATS + 1 + users, subscribes,
                    subscribe.toUpperCase(),
                    millis(started, created), millis(created, connected), millis(connected, fannedOut),
                    millis(fannedOut, System.nanoTime()));
        }
    }

    /** Subscriber counts per channel: on the node that serves it, and everywhere else put together. */
    private record Subscribers(Map<String, Long> where, Map<String, Long> elsewhere) {

        long total() {
            return where.values().stream().mapToLong(Long::longValue).sum()
                    + elsewhere.values().stream().mapToLong(Long::longValue).sum();
        }
    }

    private Subscribers subscribers(List<String> channels) {
        Map<String, Long> where = new LinkedHashMap<>();
        Map<String, Long> elsewhere = new LinkedHashMap<>();
        channels.forEach(channel -> elsewhere.put(channel, 0L));
        if (!setup.cluster) {
            where.putAll(counts(redis.masters().getFirst(), "NUMSUB", channels));
            return new Subscribers(where, elsewhere);
        }
        // Sharded channels live on the master of their slot; classic ones would show on any node.
        for (String channel : channels) {
            RedisNode owner = redis.masterOf(channel);
            for (RedisNode node : redis.nodes()) {
                long sharded = counts(node, "SHARDNUMSUB", List.of(channel)).get(channel);
                long classic = counts(node, "NUMSUB", List.of(channel)).get(channel);
                if (node.equals(owner)) {
                    where.put(channel, sharded);
                    elsewhere.merge(channel, classic, Long::sum);
                } else {
                    elsewhere.merge(channel, sharded + classic, Long::sum);
                }
            }
        }
        return new Subscribers(where, elsewhere);
    }

    /** {@code PUBSUB <what> channel...} on one node, as channel → count. */
    private Map<String, Long> counts(RedisNode node, String what, List<String> channels) {
        List<String> command = new ArrayList<>(List.of("PUBSUB", what));
        command.addAll(channels);
        List<?> reply = (List<?>) redis.command(node, command.toArray(String[]::new));
        Map<String, Long> counts = new LinkedHashMap<>();
        for (int i = 0; i < reply.size(); i += 2) {
            counts.put((String) reply.get(i), (Long) reply.get(i + 1));
        }
        return counts;
    }

    private static long millis(long from, long to) {
        return Duration.ofNanos(to - from).toMillis();
    }
}
