package dev.pigeonhole.adapter.redis.jedis;

import static dev.pigeonhole.adapter.redis.RedisTestSettings.endpoint;
import static dev.pigeonhole.adapter.redis.RedisTestSettings.settings;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.pigeonhole.adapter.redis.InlineFunction;
import dev.pigeonhole.adapter.redis.RedisFunction;
import dev.pigeonhole.adapter.redis.PubSubConnection;
import dev.pigeonhole.adapter.redis.PubSubListener;
import dev.pigeonhole.adapter.redis.RedisSettings;
import dev.pigeonhole.adapter.redis.FunctionCall;
import dev.pigeonhole.domain.model.StoreUnavailableException;
import dev.pigeonhole.testsupport.redis.LocalRedisServer;
import dev.pigeonhole.testsupport.redis.RedisServers;
import dev.pigeonhole.testsupport.redis.RedisTarget;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** What the shared driver contract leaves out: URL details, crashes, stalls and listener edge cases. */
@Timeout(120)
class JedisDriverTest {

    private static final Duration PATIENCE = Duration.ofSeconds(15);

    @Test
    void the_url_user_password_and_database_are_used_and_a_wrong_password_is_unavailable() {
        RedisTarget redis = RedisServers.single();
        RedisSettings.Single endpoint = (RedisSettings.Single) endpoint(redis);
        String user = "ph-user-" + RedisTarget.newClientName();
        redis.admin("ACL", "SETUSER", user, "on", ">p@ss:w0rd", "~*", "&*", "+@all");
        try {
            String base = "redis://" + user + ":p%40ss%3Aw0rd@" + endpoint.url().getHost() + ":" + endpoint.port();
            String clientName = RedisTarget.newClientName();
            try (JedisDriver driver = new JedisDriver(RedisSettings.of(RedisSettings.Endpoint.single(base + "/3"))
                    .withClientName(clientName))) {
                assertThat(driver.run(script("return redis.call('PING')"))).isEqualTo("PONG");
                Map<String, String> client = redis.clients(clientName).getFirst();
                assertThat(client).containsEntry("db", "3").containsEntry("user", user);
            }

            String wrong = "redis://" + user + ":nope@" + endpoint.url().getHost() + ":" + endpoint.port();
            try (JedisDriver driver = new JedisDriver(RedisSettings.of(RedisSettings.Endpoint.single(wrong)))) {
                assertThatThrownBy(() -> driver.run(script("return 1")))
                        .isInstanceOf(StoreUnavailableException.class)
                        .hasMessageContaining(endpoint.url().getHost() + ":" + endpoint.port())
                        .hasMessageNotContaining("nope");
                assertThat(driver.ping()).isFalse();
            }
        } finally {
            redis.admin("ACL", "DELUSER", user);
        }
    }

    @Test
    void after_a_crash_calls_fail_naming_the_server_and_everything_comes_back_with_it() {
        try (LocalRedisServer server = LocalRedisServer.start();
                JedisDriver driver = new JedisDriver(settings(server.target(), RedisTarget.newClientName())
                        .withTimeouts(Duration.ofMillis(500), Duration.ofMillis(500)))) {
            Recorder recorder = new Recorder();
            PubSubConnection pubsub = driver.openPubSub(recorder);
            pubsub.subscribe("news", false);
            pubsub.psubscribe("topic.*");
            assertThat(driver.run(script("return redis.call('INCR', KEYS[1])"))).isEqualTo(1L);

            server.stop();

            assertThatThrownBy(() -> driver.run(script("return 1")))
                    .isInstanceOf(StoreUnavailableException.class)
                    .hasMessageContaining("127.0.0.1:" + server.port());
            assertThatThrownBy(() -> driver.runAll(List.of(script("return 1"))))
                    .isInstanceOf(StoreUnavailableException.class);
            assertThatThrownBy(() -> pubsub.subscribe("later", false))
                    .isInstanceOf(StoreUnavailableException.class)
                    .hasMessageContaining("127.0.0.1:" + server.port());
            assertThat(driver.ping()).isFalse();

            server.restart();

            await().atMost(PATIENCE).ignoreExceptionsInstanceOf(StoreUnavailableException.class)
                    .until(() -> Long.valueOf(1).equals(driver.run(script("return redis.call('INCR', KEYS[1])"))));
            recorder.await(new Event("resubscribed", null, null, null));
            driver.publish("later", "x", false);
            driver.publish("news", "back", false);
            driver.publish("topic.a", "back too", false);
            recorder.await(new Event("message", null, "news", "back"));
            recorder.await(new Event("pattern", "topic.*", "topic.a", "back too"));
            assertThat(recorder.events).as("a subscribe that failed left nothing behind")
                    .doesNotContain(new Event("message", null, "later", "x"));
            pubsub.close();
        }
    }

    @Test
    void a_stalled_server_makes_calls_and_subscribes_unavailable_within_the_timeout_and_then_recovers() {
        try (LocalRedisServer server = LocalRedisServer.start();
                JedisDriver driver = new JedisDriver(settings(server.target(), RedisTarget.newClientName())
                        .withTimeouts(Duration.ofMillis(300), Duration.ofMillis(300)))) {
            Recorder recorder = new Recorder();
            PubSubConnection pubsub = driver.openPubSub(recorder);
            pubsub.subscribe("steady", false);

            server.target().admin("CLIENT", "PAUSE", "1500", "ALL");
            long start = System.nanoTime();
            assertThatThrownBy(() -> driver.run(script("return 1")))
                    .isInstanceOf(StoreUnavailableException.class)
                    .hasMessageContaining("no answer within 300 ms");
            assertThatThrownBy(() -> pubsub.subscribe("stalled", false))
                    .isInstanceOf(StoreUnavailableException.class)
                    .hasMessageContaining("could not serve SUBSCRIBE stalled on 127.0.0.1:" + server.port())
                    .hasMessageEndingWith(": no answer within 300 ms");
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofMillis(1400));

            await().atMost(PATIENCE).ignoreExceptionsInstanceOf(StoreUnavailableException.class)
                    .until(() -> Long.valueOf(5).equals(driver.run(script("return 5"))));
            recorder.await(new Event("resubscribed", null, null, null));
            pubsub.subscribe("stalled", false);
            driver.publish("steady", "1", false);
            driver.publish("stalled", "2", false);
            recorder.await(new Event("message", null, "steady", "1"));
            recorder.await(new Event("message", null, "stalled", "2"));
            pubsub.close();
        }
    }

    @Test
    void closing_from_inside_a_listener_returns_and_stops_deliveries() throws Exception {
        RedisTarget redis = RedisServers.single();
        String channel = redis.newPrefix() + "self-closing";
        try (JedisDriver driver = new JedisDriver(settings(redis, RedisTarget.newClientName()))) {
            AtomicReference<PubSubConnection> self = new AtomicReference<>();
            CountDownLatch closed = new CountDownLatch(1);
            List<String> received = new CopyOnWriteArrayList<>();
            PubSubConnection pubsub = driver.openPubSub(new PubSubListener() {
                @Override
                public void message(String ch, String payload) {
                    received.add(payload);
                    self.get().close();
                    closed.countDown();
                }

                @Override
                public void patternMessage(String pattern, String ch, String payload) {
                }

                @Override
                public void resubscribed() {
                }
            });
            self.set(pubsub);
            pubsub.subscribe(channel, false);
            driver.publish(channel, "one", false);
            assertThat(closed.await(PATIENCE.toSeconds(), TimeUnit.SECONDS)).isTrue();
            pubsub.close();
            // A second subscriber on the same channel tells when "two" has been delivered.
            CountDownLatch witnessed = new CountDownLatch(1);
            try (PubSubConnection witness = driver.openPubSub(new PubSubListener() {
                @Override
                public void message(String ch, String payload) {
                    witnessed.countDown();
                }

                @Override
                public void patternMessage(String pattern, String ch, String payload) {
                }

                @Override
                public void resubscribed() {
                }
            })) {
                witness.subscribe(channel, false);
                driver.publish(channel, "two", false);
                assertThat(witnessed.await(PATIENCE.toSeconds(), TimeUnit.SECONDS)).isTrue();
            }
            assertThat(received).containsExactly("one");
            assertThatThrownBy(() -> pubsub.subscribe(channel, false)).isInstanceOf(IllegalStateException.class);
        }
    }

    @Test
    void a_message_on_the_empty_channel_never_reaches_the_listener() {
        try (LocalRedisServer server = LocalRedisServer.start();
                JedisDriver driver = new JedisDriver(settings(server.target(), RedisTarget.newClientName()))) {
            Recorder recorder = new Recorder();
            PubSubConnection pubsub = driver.openPubSub(recorder);
            pubsub.psubscribe("*");
            pubsub.subscribe("", false);
            driver.publish("", "hidden", false);
            driver.publish("visible", "shown", false);
            recorder.await(new Event("pattern", "*", "visible", "shown"));
            assertThat(recorder.events).containsExactly(new Event("pattern", "*", "visible", "shown"));
            pubsub.close();
        }
    }

    @Test
    void unsubscribing_everything_and_subscribing_again_reuses_nothing_stale() {
        RedisTarget redis = RedisServers.single();
        String prefix = redis.newPrefix();
        String clientName = RedisTarget.newClientName();
        try (JedisDriver driver = new JedisDriver(settings(redis, clientName))) {
            Recorder recorder = new Recorder();
            PubSubConnection pubsub = driver.openPubSub(recorder);
            for (int round = 0; round < 20; round++) {
                pubsub.subscribe(prefix + "a", false);
                pubsub.psubscribe(prefix + "p*");
                pubsub.unsubscribe(prefix + "a", false);
                pubsub.punsubscribe(prefix + "p*");
            }
            pubsub.subscribe(prefix + "a", false);
            driver.publish(prefix + "a", "last", false);
            recorder.await(new Event("message", null, prefix + "a", "last"));
            assertThat(recorder.events).as("no resubscribed(): nothing was lost")
                    .containsExactly(new Event("message", null, prefix + "a", "last"));
            pubsub.close();
            await().atMost(PATIENCE).until(() -> redis.connectionCount(clientName, "pubsub") == 0);
        }
    }

    @Test
    void many_threads_changing_subscriptions_at_once_end_with_what_they_asked_for() throws Exception {
        RedisTarget redis = RedisServers.single();
        String prefix = redis.newPrefix();
        String clientName = RedisTarget.newClientName();
        try (JedisDriver driver = new JedisDriver(settings(redis, clientName));
                ExecutorService pool = Executors.newFixedThreadPool(8)) {
            Recorder recorder = new Recorder();
            PubSubConnection pubsub = driver.openPubSub(recorder);
            List<Future<?>> work = new ArrayList<>();
            for (int t = 0; t < 8; t++) {
                int thread = t;
                work.add(pool.submit(() -> {
                    for (int i = 0; i < 40; i++) {
                        String channel = prefix + thread + "-" + (i % 5);
                        pubsub.subscribe(channel, false);
                        if (i % 2 == 1) {
                            pubsub.psubscribe(channel + ".*");
                            pubsub.punsubscribe(channel + ".*");
                        }
                        if (i < 35) {
                            pubsub.unsubscribe(channel, false);
                        }
                    }
                }));
            }
            for (Future<?> done : work) {
                done.get();
            }
            long sub = redis.clients(clientName).stream().mapToLong(c -> Long.parseLong(c.getOrDefault("sub", "0"))).sum();
            long psub = redis.clients(clientName).stream().mapToLong(c -> Long.parseLong(c.getOrDefault("psub", "0"))).sum();
            assertThat(sub).as("channels left subscribed: the last five of each thread").isEqualTo(8 * 5);
            assertThat(psub).isZero();
            for (int t = 0; t < 8; t++) {
                driver.publish(prefix + t + "-0", "to " + t, false);
            }
            for (int t = 0; t < 8; t++) {
                recorder.await(new Event("message", null, prefix + t + "-0", "to " + t));
            }
            assertThat(recorder.events).doesNotContain(new Event("resubscribed", null, null, null));
            pubsub.close();
        }
    }

    private static FunctionCall script(String source) {
        return new FunctionCall(InlineFunction.of("test", source), List.of("jedis-driver-test"), List.of());
    }

    private record Event(String kind, String pattern, String channel, String payload) {
    }

    private static final class Recorder implements PubSubListener {
        final List<Event> events = new CopyOnWriteArrayList<>();

        @Override
        public void message(String channel, String payload) {
            events.add(new Event("message", null, channel, payload));
        }

        @Override
        public void patternMessage(String pattern, String channel, String payload) {
            events.add(new Event("pattern", pattern, channel, payload));
        }

        @Override
        public void resubscribed() {
            events.add(new Event("resubscribed", null, null, null));
        }

        void await(Event expected) {
            org.awaitility.Awaitility.await().atMost(PATIENCE).until(() -> events.contains(expected));
        }
    }
}
