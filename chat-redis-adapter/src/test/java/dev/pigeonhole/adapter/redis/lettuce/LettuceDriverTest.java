package dev.pigeonhole.adapter.redis.lettuce;

import dev.pigeonhole.adapter.redis.InlineFunction;
import dev.pigeonhole.adapter.redis.RedisFunction;
import dev.pigeonhole.adapter.redis.PubSubConnection;
import dev.pigeonhole.adapter.redis.PubSubListener;
import dev.pigeonhole.adapter.redis.RedisDriver;
import dev.pigeonhole.adapter.redis.RedisTestSettings;
import dev.pigeonhole.adapter.redis.FunctionCall;
import dev.pigeonhole.domain.model.StoreUnavailableException;
import dev.pigeonhole.testsupport.redis.LocalRedisServer;
import dev.pigeonhole.testsupport.redis.RedisServers;
import dev.pigeonhole.testsupport.redis.RedisTarget;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static dev.pigeonhole.adapter.redis.RedisTestSettings.settings;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * What is particular to the Lettuce driver, on real servers: reply shapes, loading a library a node lacks,
 * failure translation, and resubscription after Lettuce reconnects a killed subscription
 * connection (on a cluster, also the shard nodes' connections).
 */
class LettuceDriverTest {

    private static final RedisFunction SHAPES = InlineFunction.of("shapes", """
            local kind = ARGV[1]
            if kind == 'int' then return 42 end
            if kind == 'str' then return 'héllo' end
            if kind == 'nil' then return nil end
            if kind == 'false' then return false end
            if kind == 'true' then return true end
            if kind == 'status' then return redis.status_reply('OK') end
            if kind == 'empty' then return {} end
            if kind == 'one' then return {7} end
            if kind == 'map' then return {map={a=1}} end
            if kind == 'double' then return {double=3.5} end
            return {1, 'two', {3, {'four', {}}, 5}, false, -6}
            """);

    private static final RedisFunction INCR = InlineFunction.of("incr", "return redis.call('INCRBY', KEYS[1], ARGV[1])");

    private static final RedisFunction FAILS = InlineFunction.of("fails", "return redis.error_reply('ERR deliberately broken')");

    private static RedisTarget target(String kind) {
        return kind.equals("cluster") ? RedisServers.cluster() : RedisServers.single();
    }

    private static FunctionCall shapes(String prefix, String kind) {
        return new FunctionCall(SHAPES, List.of(prefix + "k"), List.of(kind));
    }

    @ParameterizedTest
    @ValueSource(strings = {"single", "cluster"})
    void replies_come_back_in_the_contract_shapes(String kind) {
        RedisTarget target = target(kind);
        String prefix = target.newPrefix();
        try (RedisDriver driver = new LettuceDriver(settings(target))) {
            assertThat(driver.isCluster()).isEqualTo(target.isCluster());
            assertThat(driver.run(shapes(prefix, "int"))).isEqualTo(42L);
            assertThat(driver.run(shapes(prefix, "str"))).isEqualTo("héllo");
            assertThat(driver.run(shapes(prefix, "nil"))).isNull();
            assertThat(driver.run(shapes(prefix, "false"))).isNull();
            assertThat(driver.run(shapes(prefix, "true"))).isEqualTo(1L);
            assertThat(driver.run(shapes(prefix, "status"))).isEqualTo("OK");
            assertThat(driver.run(shapes(prefix, "empty"))).isEqualTo(List.of());
            assertThat(driver.run(shapes(prefix, "one"))).isEqualTo(List.of(7L));
            // RESP3 types come back as a RESP2 client would see them
            assertThat(driver.run(shapes(prefix, "map"))).isEqualTo(List.of("a", 1L));
            assertThat(driver.run(shapes(prefix, "double"))).isEqualTo("3.5");
            assertThat(driver.run(shapes(prefix, "nested")))
                    .isEqualTo(Arrays.asList(1L, "two", List.of(3L, List.of("four", List.of()), 5L), null, -6L));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"single", "cluster"})
    void a_function_no_node_knows_has_its_library_loaded_once(String kind) {
        RedisTarget target = target(kind);
        String prefix = target.newPrefix();
        RedisFunction fresh = InlineFunction.of("fresh", "return {KEYS[1], ARGV[1], '" + prefix + "'}");
        try (RedisDriver driver = new LettuceDriver(settings(target))) {
            long loadsBefore = target.commandCalls("function|load");
            assertThat(driver.run(new FunctionCall(fresh, List.of(prefix + "{a}"), List.of("x"))))
                    .isEqualTo(List.of(prefix + "{a}", "x", prefix));
            assertThat(target.commandCalls("function|load") - loadsBefore).isEqualTo(1);
            assertThat(driver.run(new FunctionCall(fresh, List.of(prefix + "{a}"), List.of("y"))))
                    .isEqualTo(List.of(prefix + "{a}", "y", prefix));
            assertThat(target.commandCalls("function|load") - loadsBefore).isEqualTo(1);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"single", "cluster"})
    void run_all_answers_in_order_across_slots_loading_what_a_node_lacks(String kind) {
        RedisTarget target = target(kind);
        String prefix = target.newPrefix();
        RedisFunction fresh = InlineFunction.of("fresh-all", "return redis.call('INCRBY', KEYS[1], ARGV[1])");
        try (RedisDriver driver = new LettuceDriver(settings(target))) {
            assertThat(driver.runAll(List.of())).isEmpty();
            List<FunctionCall> calls = new ArrayList<>();
            for (int i = 0; i < 30; i++) {
                calls.add(new FunctionCall(i % 2 == 0 ? fresh : INCR, List.of(prefix + "{" + i + "}"), List.of(String.valueOf(i))));
            }
            List<Object> replies = driver.runAll(calls);
            for (int i = 0; i < 30; i++) {
                assertThat(replies.get(i)).isEqualTo((long) i);
            }
            if (target.isCluster()) {
                assertThat(target.keysWithPrefixByMaster(prefix)).hasSize(target.masters().size());
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"single", "cluster"})
    void a_script_error_is_an_illegal_state_naming_the_script(String kind) {
        RedisTarget target = target(kind);
        try (RedisDriver driver = new LettuceDriver(settings(target))) {
            FunctionCall call = new FunctionCall(FAILS, List.of(target.newPrefix() + "k"), List.of());
            assertThatThrownBy(() -> driver.run(call))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("fails")
                    .hasMessageContaining("deliberately broken");
            assertThatThrownBy(() -> driver.runAll(List.of(shapes(target.newPrefix(), "int"), call)))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("fails");
        }
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void nowhere_is_unavailable_fast_and_ping_is_false(boolean cluster) {
        try (RedisDriver driver = new LettuceDriver(RedisTestSettings.nowhere(cluster))) {
            long start = System.nanoTime();
            assertThatThrownBy(() -> driver.run(new FunctionCall(INCR, List.of("k"), List.of("1"))))
                    .isInstanceOf(StoreUnavailableException.class)
                    .hasMessageContaining("127.0.0.1");
            assertThatThrownBy(() -> driver.publish("c", "p", false)).isInstanceOf(StoreUnavailableException.class);
            assertThatThrownBy(() -> driver.openPubSub(new Recorder())).isInstanceOf(StoreUnavailableException.class);
            assertThat(driver.ping()).isFalse();
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
        }
    }

    @Test
    void a_crashed_server_is_unavailable_at_once_and_used_again_once_back() {
        try (LocalRedisServer server = LocalRedisServer.start();
             RedisDriver driver = new LettuceDriver(settings(server.target(), RedisTarget.newClientName()))) {
            FunctionCall incr = new FunctionCall(INCR, List.of("n"), List.of("1"));
            assertThat(driver.run(incr)).isEqualTo(1L);
            server.stop();
            long start = System.nanoTime();
            assertThatThrownBy(() -> driver.run(incr)).isInstanceOf(StoreUnavailableException.class);
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(1));
            assertThat(driver.ping()).isFalse();
            server.restart();
            // the restarted server has neither data nor libraries: FCALL meets "function not found" again
            await().atMost(Duration.ofSeconds(15)).ignoreException(StoreUnavailableException.class)
                    .untilAsserted(() -> assertThat(driver.run(incr)).isEqualTo(1L));
            assertThat(driver.ping()).isTrue();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"single", "cluster"})
    void messages_flow_and_resume_after_the_subscription_connections_are_killed(String kind) throws Exception {
        RedisTarget target = target(kind);
        String name = RedisTarget.newClientName();
        String prefix = target.newPrefix();
        String plain = prefix + "plain";
        // several shard channels, so that on a cluster more than one node connection exists
        List<String> sharded = List.of(prefix + "{s1}", prefix + "{s2}", prefix + "{s3}", prefix + "{s4}");
        Recorder recorder = new Recorder();
        try (RedisDriver driver = new LettuceDriver(settings(target, name));
             PubSubConnection pubSub = driver.openPubSub(recorder)) {
            pubSub.subscribe(plain, false);
            pubSub.psubscribe(prefix + "pat:*");
            for (String channel : sharded) {
                pubSub.subscribe(channel, true);
            }
            assertDelivered(driver, recorder, plain, prefix, sharded, "before");

            recorder.log.add(System.nanoTime() / 1_000_000 + " ms: killing");
            int killed = target.killConnections(name, "pubsub");
            assertThat(killed).isGreaterThanOrEqualTo(target.isCluster() ? 2 : 1);
            assertThat(recorder.events.poll(15, TimeUnit.SECONDS)).isEqualTo("resubscribed");
            if (target.isCluster()) {
                // The fixture kills node by node, so a node's connections may be back (and reported)
                // before the next node's are killed: wait for the last report.
                await().atMost(Duration.ofSeconds(15))
                        .untilAsserted(() -> assertThat(subscriptions(target, name)).as(() -> target.clients(name).toString()).isEqualTo(List.of(1, 1, 4)));
            } else {
                assertThat(recorder.resubscribed.get()).isEqualTo(1);
            }
            // resubscribed() means confirmed: published right away, nothing may be missed
            assertDelivered(driver, recorder, plain, prefix, sharded, "after");

            pubSub.unsubscribe(plain, false);
            pubSub.punsubscribe(prefix + "pat:*");
            for (String channel : sharded) {
                pubSub.unsubscribe(channel, true);
            }
            driver.publish(plain, "gone", false);
            driver.publish(sharded.getFirst(), "gone", true);
            assertThat(recorder.events.poll(300, TimeUnit.MILLISECONDS)).isNull();
        }
        assertThat(target.connectionCount(name, null)).isZero();
    }

    @Test
    void resubscribed_after_the_server_itself_comes_back() throws Exception {
        String name = RedisTarget.newClientName();
        Recorder recorder = new Recorder();
        try (LocalRedisServer server = LocalRedisServer.start();
             RedisDriver driver = new LettuceDriver(settings(server.target(), name));
             PubSubConnection pubSub = driver.openPubSub(recorder)) {
            pubSub.subscribe("news", false);
            server.restart();
            assertThat(recorder.events.poll(20, TimeUnit.SECONDS)).isEqualTo("resubscribed");
            assertThat(server.target().clients(name)).anySatisfy(client -> assertThat(client.get("sub")).isEqualTo("1"));
            await().atMost(Duration.ofSeconds(10)).ignoreExceptions().until(() -> {
                driver.publish("news", "again", false);
                return true;
            });
            assertThat(recorder.events.poll(5, TimeUnit.SECONDS)).isEqualTo("news=again");
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"single", "cluster"})
    void concurrent_callers_share_one_connection(String kind) throws Exception {
        RedisTarget target = target(kind);
        String name = RedisTarget.newClientName();
        String prefix = target.newPrefix();
        ExecutorService pool = Executors.newFixedThreadPool(16);
        try (RedisDriver driver = new LettuceDriver(settings(target, name))) {
            List<Future<Object>> results = new ArrayList<>();
            for (int i = 0; i < 400; i++) {
                String key = prefix + "{" + (i % 7) + "}";
                results.add(pool.submit(() -> driver.run(new FunctionCall(INCR, List.of(key), List.of("1")))));
            }
            for (Future<Object> result : results) {
                assertThat(result.get(10, TimeUnit.SECONDS)).isInstanceOf(Long.class);
            }
            // one command connection per master (the cluster's topology refresh connects briefly too)
            List<Map<String, String>> clients = target.clients(name);
            assertThat(clients.stream().filter(c -> !c.get("cmd").startsWith("cluster")).count())
                    .isLessThanOrEqualTo(target.masters().size());
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void listener_calls_never_overlap_and_stop_at_close() throws Exception {
        RedisTarget target = RedisServers.cluster();
        String prefix = target.newPrefix();
        AtomicInteger inside = new AtomicInteger();
        AtomicInteger overlaps = new AtomicInteger();
        AtomicInteger received = new AtomicInteger();
        CountDownLatch all = new CountDownLatch(600);
        PubSubListener slow = new PubSubListener() {
            @Override
            public void message(String channel, String payload) {
                if (inside.incrementAndGet() > 1) {
                    overlaps.incrementAndGet();
                }
                Thread.onSpinWait();
                inside.decrementAndGet();
                received.incrementAndGet();
                all.countDown();
            }

            @Override
            public void patternMessage(String pattern, String channel, String payload) {
            }

            @Override
            public void resubscribed() {
            }
        };
        List<String> channels = List.of(prefix + "{a}", prefix + "{b}", prefix + "{c}", prefix + "{d}", prefix + "{e}", prefix + "{f}");
        try (RedisDriver driver = new LettuceDriver(settings(target))) {
            PubSubConnection pubSub = driver.openPubSub(slow);
            for (String channel : channels) {
                pubSub.subscribe(channel, true);
            }
            ExecutorService pool = Executors.newFixedThreadPool(6);
            for (String channel : channels) {
                pool.submit(() -> {
                    for (int i = 0; i < 100; i++) {
                        driver.publish(channel, "m" + i, true);
                    }
                });
            }
            assertThat(all.await(20, TimeUnit.SECONDS)).isTrue();
            assertThat(overlaps.get()).isZero();
            pubSub.close();
            pubSub.close();
            int atClose = received.get();
            // A second subscriber on the same channel tells when "late" has been delivered.
            CountDownLatch witnessed = new CountDownLatch(1);
            try (PubSubConnection witness = driver.openPubSub(new PubSubListener() {
                @Override
                public void message(String channel, String payload) {
                    witnessed.countDown();
                }

                @Override
                public void patternMessage(String pattern, String channel, String payload) {
                }

                @Override
                public void resubscribed() {
                }
            })) {
                witness.subscribe(channels.getFirst(), true);
                driver.publish(channels.getFirst(), "late", true);
                assertThat(witnessed.await(5, TimeUnit.SECONDS)).isTrue();
            }
            assertThat(received.get()).isEqualTo(atClose);
            pool.shutdownNow();
        }
    }

    /** Channels, patterns and shard channels subscribed by the connections named {@code name}, summed over nodes. */
    private static List<Integer> subscriptions(RedisTarget target, String name) {
        int sub = 0;
        int psub = 0;
        int ssub = 0;
        for (Map<String, String> client : target.clients(name)) {
            sub += Integer.parseInt(client.getOrDefault("sub", "0"));
            psub += Integer.parseInt(client.getOrDefault("psub", "0"));
            ssub += Integer.parseInt(client.getOrDefault("ssub", "0"));
        }
        return List.of(sub, psub, ssub);
    }

    private static void assertDelivered(RedisDriver driver, Recorder recorder, String plain, String prefix,
                                        List<String> sharded, String tag) throws InterruptedException {
        driver.publish(plain, tag, false);
        assertThat(recorder.nextMessage()).as(recorder::history).isEqualTo(plain + "=" + tag);
        driver.publish(prefix + "pat:x", tag, false);
        assertThat(recorder.nextMessage()).as(recorder::history)
                .isEqualTo(prefix + "pat:*|" + prefix + "pat:x=" + tag);
        for (String channel : sharded) {
            driver.publish(channel, tag, true);
            assertThat(recorder.nextMessage()).as(recorder::history).isEqualTo(channel + "=" + tag);
        }
    }

    private static final class Recorder implements PubSubListener {
        final BlockingQueue<String> events = new LinkedBlockingQueue<>();
        final AtomicInteger resubscribed = new AtomicInteger();
        /** Every event with its time and delivering thread, for a failure's message. */
        private final List<String> log = new CopyOnWriteArrayList<>();

        String history() {
            return String.join("\n", log);
        }

        /** The next message within 5 s, past any resubscription report (a cluster may send several). */
        String nextMessage() throws InterruptedException {
            String event = events.poll(5, TimeUnit.SECONDS);
            while ("resubscribed".equals(event)) {
                event = events.poll(5, TimeUnit.SECONDS);
            }
            return event;
        }

        private void add(String event) {
            log.add(System.nanoTime() / 1_000_000 + " ms on " + Thread.currentThread().getName() + ": " + event);
            events.add(event);
        }

        @Override
        public void message(String channel, String payload) {
            add(channel + "=" + payload);
        }

        @Override
        public void patternMessage(String pattern, String channel, String payload) {
            add(pattern + "|" + channel + "=" + payload);
        }

        @Override
        public void resubscribed() {
            resubscribed.incrementAndGet();
            add("resubscribed");
        }
    }
}
