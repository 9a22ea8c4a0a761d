package dev.pigeonhole.adapter.redis;

import dev.pigeonhole.domain.model.StoreUnavailableException;
import dev.pigeonhole.testsupport.redis.RedisServers;
import dev.pigeonhole.testsupport.redis.RedisTarget;
import org.awaitility.core.ConditionFactory;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.function.ThrowingSupplier;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.IntStream;

import static dev.pigeonhole.adapter.redis.RedisTestSettings.settings;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * What every {@link RedisDriver} does, on a single node and on a cluster. A driver's test extends
 * this once per target:
 *
 * <pre>{@code
 * class JedisClusterDriverTest extends RedisDriverContract {
 *     protected RedisTarget target() { return RedisServers.cluster(); }
 *     protected RedisDriver newDriver(RedisSettings settings) { return new JedisDriver(settings); }
 * }
 * }</pre>
 *
 * <p>Each test has its own driver, client name and key prefix, so tests share a server without
 * sharing data or connections. Checks that read {@code INFO commandstats} compare deltas and
 * assume nothing else loads a library or runs SPUBLISH on that server during the test (JUnit runs test
 * classes one at a time unless told otherwise).
 */
@Timeout(120)
public abstract class RedisDriverContract {

    /** How long a delivery or a reconnect may take before the test gives up: a hang guard. */
    protected static final Duration PATIENCE = Duration.ofSeconds(15);
    /** How long a call against a dead port may take before the test calls it a hang. */
    private static final Duration HANG_GUARD = Duration.ofSeconds(5);

    /** The Redis to run against: {@link RedisServers#single()} or {@link RedisServers#cluster()}. */
    protected abstract RedisTarget target();

    /** A new driver under test, connected per {@code settings}. */
    protected abstract RedisDriver newDriver(RedisSettings settings);

    /**
     * The settings a driver of this test connects with, its connections named {@code clientName}:
     * those of {@link #target()}, unless the target wants another way in (a user and password).
     */
    protected RedisSettings settingsFor(String clientName) {
        return settings(redis, clientName);
    }

    protected RedisTarget redis;
    protected String clientName;
    protected String prefix;
    protected RedisDriver driver;
    private final List<AutoCloseable> opened = new ArrayList<>();

    @BeforeEach
    void openDriver() {
        redis = target();
        clientName = RedisTarget.newClientName();
        prefix = redis.newPrefix();
        driver = track(newDriver(settingsFor(clientName)));
    }

    @AfterEach
    void closeEverything() throws Exception {
        Exception first = null;
        List<AutoCloseable> reversed = new ArrayList<>(opened);
        Collections.reverse(reversed);
        for (AutoCloseable closeable : reversed) {
            try {
                closeable.close();
            } catch (Exception e) {
                if (first == null) {
                    first = e;
                }
            }
        }
        opened.clear();
        if (first != null) {
            throw first;
        }
    }

    // ---- scripts ---------------------------------------------------------------------------

    @Test
    void run_turns_lua_replies_into_longs_strings_lists_and_nulls() {
        RedisFunction shapes = InlineFunction.of("shapes", """
                redis.call('SET', KEYS[1], ARGV[1])
                return {42, redis.call('GET', KEYS[1]), {1, 'two', {3}}, false, redis.status_reply('FINE')}
                """);

        Object reply = driver.run(new FunctionCall(shapes, List.of(key("shapes")), List.of("text")));

        assertThat(reply).isEqualTo(Arrays.asList(42L, "text", List.of(1L, "two", List.of(3L)), null, "FINE"));
        assertThat(redis.keysWithPrefix(prefix)).as("the script ran on the node that owns its key")
                .containsExactly(key("shapes"));
    }

    @Test
    void run_returns_top_level_scalars_as_plain_values() {
        assertThat(driver.run(call("return 7"))).isEqualTo(7L);
        assertThat(driver.run(call("return 'seven'"))).isEqualTo("seven");
        assertThat(driver.run(call("return false"))).isNull();
        assertThat(driver.run(call("return nil"))).isNull();
        assertThat(driver.run(call("return {}"))).isEqualTo(List.of());
        assertThat(driver.run(new FunctionCall(InlineFunction.of("args", "return {KEYS[1], ARGV[1], ARGV[2]}"),
                List.of(key("k")), List.of("a", "")))).isEqualTo(List.of(key("k"), "a", ""));
    }

    @Test
    void a_function_its_node_does_not_know_loads_its_library_then_runs_by_name() {
        RedisFunction counter = InlineFunction.of("counter", "return redis.call('INCR', KEYS[1])");
        FunctionCall call = new FunctionCall(counter, List.of(key("counter")), List.of());
        long loadsBefore = redis.commandCalls("function|load");

        assertThat(driver.run(call)).as("run once, not once per attempt").isEqualTo(1L);

        long loadsAfterFirst = redis.commandCalls("function|load");
        long callsAfterFirst = redis.commandCalls("fcall");
        assertThat(loadsAfterFirst - loadsBefore).as("libraries loaded for a function no node knew").isEqualTo(1);

        assertThat(driver.run(call)).isEqualTo(2L);

        assertThat(redis.commandCalls("function|load") - loadsAfterFirst).as("loads once the node has the library")
                .isZero();
        assertThat(redis.commandCalls("fcall") - callsAfterFirst).as("FCALLs once the node has the library")
                .isEqualTo(1);

        redis.functionFlush();
        assertThat(driver.run(call)).as("the node forgetting its libraries (a restart) is survived")
                .isEqualTo(3L);
    }

    @Test
    void run_all_returns_every_reply_in_order_across_slots_even_after_a_function_flush() {
        RedisFunction add = InlineFunction.of("add", "return redis.call('INCRBY', KEYS[1], ARGV[1])");
        RedisFunction echo = InlineFunction.of("echo", "return {KEYS[1], ARGV[1]}");
        List<FunctionCall> calls = IntStream.range(0, 50)
                .mapToObj(i -> i % 2 == 0
                        ? new FunctionCall(add, List.of(key("n" + i)), List.of(Integer.toString(i)))
                        : new FunctionCall(echo, List.of(key("n" + i)), List.of("v" + i)))
                .toList();

        for (int round = 1; round <= 3; round++) {
            if (round != 2) {
                redis.functionFlush();
            }
            int times = round;
            List<Object> expected = IntStream.range(0, 50)
                    .mapToObj(i -> i % 2 == 0 ? (Object) ((long) i * times) : List.of(key("n" + i), "v" + i))
                    .toList();
            assertThat(driver.runAll(calls)).as("round %d", round).containsExactlyElementsOf(expected);
        }

        assertThat(redis.keysWithPrefix(prefix)).hasSize(25);
        if (redis.isCluster()) {
            assertThat(redis.keysWithPrefixByMaster(prefix).values().stream().filter(keys -> !keys.isEmpty()).count())
                    .as("masters the batch wrote to (the test must span nodes)").isGreaterThanOrEqualTo(2);
        }
    }

    @Test
    void run_all_of_nothing_is_nothing() {
        assertThat(driver.runAll(List.of())).isEmpty();
    }

    @Test
    void a_script_error_is_an_illegal_state_and_the_driver_carries_on() {
        FunctionCall ok = call("return redis.call('INCR', KEYS[1])");

        assertScriptError(() -> driver.run(call("return redis.error_reply('boom-" + prefix + "')")), "boom-" + prefix);
        assertScriptError(() -> driver.run(call("return redis.call('NO_SUCH_COMMAND', KEYS[1])")), null);
        assertScriptError(() -> driver.run(call("error('raised-" + prefix + "')")), "raised-" + prefix);
        FunctionCall wrongType = new FunctionCall(
                InlineFunction.of("wrong-type", "redis.call('LPUSH', KEYS[1], 'x') return redis.call('INCR', KEYS[1])"),
                List.of(key("inline") + "list"), List.of());
        assertScriptError(() -> driver.run(wrongType), null);
        assertThat(driver.run(ok)).isEqualTo(1L);

        assertScriptError(() -> driver.runAll(List.of(ok, call("return redis.error_reply('in-a-batch')"), ok)),
                "in-a-batch");

        assertThat(driver.run(ok)).as("the driver still works, and the batch's good calls ran once each")
                .isEqualTo(4L);
        assertThat(driver.runAll(List.of(ok, ok))).containsExactly(5L, 6L);
    }

    @Test
    void runs_from_many_threads_at_once_each_run_once() throws Exception {
        FunctionCall incr = call("return redis.call('INCR', KEYS[1])");
        List<Future<Object>> replies = new ArrayList<>();
        try (ExecutorService pool = Executors.newFixedThreadPool(8)) {
            for (int i = 0; i < 200; i++) {
                replies.add(pool.submit(() -> driver.run(incr)));
            }
            List<Object> values = new ArrayList<>();
            for (Future<Object> reply : replies) {
                values.add(reply.get());
            }
            assertThat(values).containsExactlyInAnyOrderElementsOf(
                    IntStream.rangeClosed(1, 200).mapToObj(i -> (Object) (long) i).toList());
        }
    }

    @Test
    void the_driver_reconnects_after_its_connections_are_cut() {
        FunctionCall write = call("redis.call('SET', KEYS[1], ARGV[1]) return redis.call('GET', KEYS[1])", "before");
        assertThat(driver.run(write)).isEqualTo("before");

        assertThat(redis.killConnections(clientName, "normal"))
                .as("connections named %s (every connection carries the client name)", clientName).isPositive();

        FunctionCall rewrite = call("redis.call('SET', KEYS[1], ARGV[1]) return redis.call('GET', KEYS[1])", "after");
        patiently().ignoreException(StoreUnavailableException.class).until(() -> "after".equals(driver.run(rewrite)));
        assertThat(driver.ping()).isTrue();
    }

    @Test
    void is_cluster_says_what_the_driver_is_connected_to() {
        assertThat(driver.isCluster()).isEqualTo(redis.isCluster());
    }

    // ---- pub/sub ---------------------------------------------------------------------------

    @Test
    void a_publish_right_after_subscribe_returns_arrives() {
        Recorder recorder = new Recorder();
        PubSubConnection pubsub = track(driver.openPubSub(recorder));

        for (int i = 0; i < 5; i++) {
            String channel = channel("now" + i);
            pubsub.subscribe(channel, false);
            driver.publish(channel, "hello " + i, false);
        }
        assertThat(subscriptions()).isEqualTo(new Subscriptions(5, 0, 0));

        for (int i = 0; i < 5; i++) {
            recorder.awaitEvent(new Message(channel("now" + i), "hello " + i));
        }
        assertThat(recorder.events()).hasSize(5);
    }

    @Test
    void after_unsubscribe_returns_nothing_more_arrives_on_that_channel() {
        Recorder recorder = new Recorder();
        PubSubConnection pubsub = track(driver.openPubSub(recorder));
        // One hash tag: both channels live in one slot, so their messages reach the subscriber in order.
        String gone = channel("u") + "gone";
        String marker = channel("u") + "marker";
        pubsub.subscribe(gone, false);
        pubsub.subscribe(marker, false);
        driver.publish(gone, "first", false);
        recorder.awaitEvent(new Message(gone, "first"));

        pubsub.unsubscribe(gone, false);
        driver.publish(gone, "late", false);
        driver.publish(marker, "marker", false);
        assertThat(subscriptions()).isEqualTo(new Subscriptions(1, 0, 0));

        recorder.awaitEvent(new Message(marker, "marker"));
        assertThat(recorder.events()).doesNotContain(new Message(gone, "late"));

        pubsub.unsubscribe(gone, false);
        pubsub.subscribe(marker, false);
        assertThat(subscriptions()).as("repeating an (un)subscribe is harmless").isEqualTo(new Subscriptions(1, 0, 0));
    }

    @Test
    void a_pattern_subscription_delivers_with_its_pattern() {
        Recorder recorder = new Recorder();
        PubSubConnection pubsub = track(driver.openPubSub(recorder));
        // One hash tag for every name, so that all the messages reach the subscriber in order.
        String base = channel("p");
        String pattern = base + ".*";
        String marker = base + "-marker";
        pubsub.subscribe(marker, false);

        pubsub.psubscribe(pattern);
        driver.publish(base + ".one", "matched", false);
        driver.publish(base + "-one", "not matched", false);
        assertThat(subscriptions()).isEqualTo(new Subscriptions(1, 1, 0));

        recorder.awaitEvent(new PatternMessage(pattern, base + ".one", "matched"));

        pubsub.punsubscribe(pattern);
        driver.publish(base + ".two", "late", false);
        driver.publish(marker, "marker", false);
        assertThat(subscriptions()).isEqualTo(new Subscriptions(1, 0, 0));
        recorder.awaitEvent(new Message(marker, "marker"));

        assertThat(recorder.events()).as("pattern deliveries come through patternMessage alone")
                .containsExactly(new PatternMessage(pattern, base + ".one", "matched"), new Message(marker, "marker"));
    }

    @Test
    void a_sharded_subscription_receives_sharded_publishes() {
        Recorder recorder = new Recorder();
        PubSubConnection pubsub = track(driver.openPubSub(recorder));
        String sharded = channel("s") + "news";
        String marker = channel("s") + "marker";
        long spublishBefore = redis.commandCalls("spublish");

        pubsub.subscribe(marker, true);
        pubsub.subscribe(sharded, true);
        driver.publish(sharded, "first", true);
        assertThat(subscriptions()).as("SSUBSCRIBE on a cluster, SUBSCRIBE on a single node")
                .isEqualTo(redis.isCluster() ? new Subscriptions(0, 0, 2) : new Subscriptions(2, 0, 0));
        recorder.awaitEvent(new Message(sharded, "first"));
        assertThat(redis.commandCalls("spublish") - spublishBefore)
                .as("SPUBLISH calls (only on a cluster)").isEqualTo(redis.isCluster() ? 1 : 0);

        pubsub.unsubscribe(sharded, true);
        driver.publish(sharded, "late", true);
        driver.publish(marker, "marker", true);
        assertThat(subscriptions().total()).isEqualTo(1);
        recorder.awaitEvent(new Message(marker, "marker"));
        assertThat(recorder.events()).containsExactly(new Message(sharded, "first"), new Message(marker, "marker"));
    }

    @Test
    void sharded_channels_in_different_slots_all_deliver() {
        Recorder recorder = new Recorder();
        PubSubConnection pubsub = track(driver.openPubSub(recorder));
        List<String> channels = IntStream.range(0, 12).mapToObj(i -> channel("spread" + i)).toList();

        channels.forEach(channel -> pubsub.subscribe(channel, true));
        channels.forEach(channel -> driver.publish(channel, "to " + channel, true));

        channels.forEach(channel -> recorder.awaitEvent(new Message(channel, "to " + channel)));
    }

    @Test
    void after_its_connection_is_cut_a_subscription_comes_back_and_says_so() {
        Recorder recorder = new Recorder();
        PubSubConnection pubsub = track(driver.openPubSub(recorder));
        String classic = channel("classic");
        String sharded = channel("sharded");
        String pattern = prefix + "pat.*";
        pubsub.subscribe(classic, false);
        pubsub.subscribe(sharded, true);
        pubsub.psubscribe(pattern);
        Subscriptions before = subscriptions();
        driver.publish(classic, "1", false);
        driver.publish(sharded, "1", true);
        driver.publish(prefix + "pat.x", "1", false);
        recorder.awaitEvent(new Message(classic, "1"));
        recorder.awaitEvent(new Message(sharded, "1"));
        recorder.awaitEvent(new PatternMessage(pattern, prefix + "pat.x", "1"));
        assertThat(recorder.events()).doesNotContain(new Resubscribed());

        assertThat(redis.killConnections(clientName, "pubsub"))
                .as("subscription connections named %s", clientName).isPositive();

        recorder.awaitEvent(new Resubscribed());
        if (redis.isCluster()) {
            // Connections to several nodes may each come back (and say so) on their own.
            patiently().until(() -> subscriptions().equals(before));
        } else {
            assertThat(subscriptions()).as("everything subscribed again once resubscribed() is called")
                    .isEqualTo(before);
        }
        driver.publish(classic, "2", false);
        driver.publish(sharded, "2", true);
        driver.publish(prefix + "pat.x", "2", false);
        recorder.awaitEvent(new Message(classic, "2"));
        recorder.awaitEvent(new Message(sharded, "2"));
        recorder.awaitEvent(new PatternMessage(pattern, prefix + "pat.x", "2"));

        String added = channel("added");
        pubsub.subscribe(added, false);
        driver.publish(added, "3", false);
        recorder.awaitEvent(new Message(added, "3"));
    }

    @Test
    void a_closed_subscription_delivers_nothing_and_closes_twice_harmlessly() {
        Recorder closedRecorder = new Recorder();
        PubSubConnection closed = track(driver.openPubSub(closedRecorder));
        String channel = channel("closing");
        closed.subscribe(channel, false);
        driver.publish(channel, "before", false);
        closedRecorder.awaitEvent(new Message(channel, "before"));

        closed.close();
        closed.close();

        patiently().alias("the closed subscription's connections to go")
                .until(() -> redis.connectionCount(clientName, "pubsub") == 0);
        Recorder witness = new Recorder();
        track(driver.openPubSub(witness)).subscribe(channel, false);
        driver.publish(channel, "after", false);
        witness.awaitEvent(new Message(channel, "after"));
        assertThat(closedRecorder.events()).containsExactly(new Message(channel, "before"));
    }

    @Test
    void publish_to_a_channel_nobody_listens_to_is_fine() {
        driver.publish(channel("nobody"), "into the void", false);
        driver.publish(channel("nobody"), "into the void", true);
    }

    // ---- health and failure ----------------------------------------------------------------

    @Test
    void ping_is_true_when_redis_answers() {
        assertThat(driver.ping()).isTrue();
    }

    @Test
    void closing_a_driver_twice_is_harmless() {
        RedisDriver another = track(newDriver(settingsFor(RedisTarget.newClientName())));
        assertThat(another.run(call("return 1"))).isEqualTo(1L);

        another.close();
        another.close();
    }

    @Test
    void against_a_port_where_nothing_listens_every_call_is_store_unavailable_and_ping_is_false() {
        RedisSettings nowhere = RedisTestSettings.nowhere(redis.isCluster());
        RedisDriver down = promptly("building a driver", () -> track(newDriver(nowhere)));

        assertUnavailable("run", () -> down.run(call("return 1")));
        assertUnavailable("runAll", () -> down.runAll(List.of(call("return 1"), call("return 2"))));
        assertUnavailable("publish", () -> {
            down.publish(channel("down"), "x", false);
            return null;
        });
        assertUnavailable("sharded publish", () -> {
            down.publish(channel("down"), "x", true);
            return null;
        });
        promptly("openPubSub and subscribe", () -> {
            try (PubSubConnection pubsub = down.openPubSub(new Recorder())) {
                assertThatThrownBy(() -> pubsub.subscribe(channel("down"), false))
                        .as("subscribe without Redis").isInstanceOf(StoreUnavailableException.class);
            } catch (StoreUnavailableException alsoFine) {
                // Refusing to open at all is as good as refusing the subscribe.
            }
            return null;
        });
        assertThat(promptly("ping", down::ping)).isFalse();
        promptly("close", () -> {
            down.close();
            return null;
        });
    }

    // ---- helpers ---------------------------------------------------------------------------

    /** A key of this test: {@code <prefix>{name}}, so each name is its own hash slot. */
    protected String key(String name) {
        return prefix + "{" + name + "}";
    }

    /** A channel of this test, named like {@link #key(String)}. */
    protected String channel(String name) {
        return prefix + "{ch-" + name + "}";
    }

    /** A call of an inline script on one key of this test. */
    protected FunctionCall call(String source, String... args) {
        return new FunctionCall(InlineFunction.of("inline", source), List.of(key("inline")), List.of(args));
    }

    protected <T extends AutoCloseable> T track(T closeable) {
        opened.add(closeable);
        return closeable;
    }

    protected static ConditionFactory patiently() {
        return await().atMost(PATIENCE).pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(10));
    }

    /** The channels, patterns and shard channels Redis holds for this test's connections, over every node. */
    protected Subscriptions subscriptions() {
        long sub = 0;
        long psub = 0;
        long ssub = 0;
        for (Map<String, String> client : redis.clients(clientName)) {
            sub += Long.parseLong(client.getOrDefault("sub", "0"));
            psub += Long.parseLong(client.getOrDefault("psub", "0"));
            ssub += Long.parseLong(client.getOrDefault("ssub", "0"));
        }
        return new Subscriptions(sub, psub, ssub);
    }

    private static void assertScriptError(ThrowingSupplier<?> work, String messagePart) {
        Throwable thrown = catchThrowable(work);
        assertThat(thrown).as("a script's error reply").isInstanceOf(IllegalStateException.class);
        assertThat(thrown.getClass().getName()).as("the exception type")
                .doesNotStartWith("redis.clients.").doesNotStartWith("io.lettuce.").doesNotStartWith("org.redisson.");
        if (messagePart != null) {
            assertThat(thrown).hasMessageContaining(messagePart);
        }
    }

    private static void assertUnavailable(String what, ThrowingSupplier<?> work) {
        Throwable thrown = promptly(what, () -> catchThrowable(work));
        assertThat(thrown).as("%s without Redis", what).isInstanceOf(StoreUnavailableException.class);
    }

    private static Throwable catchThrowable(ThrowingSupplier<?> work) {
        try {
            Object value = work.get();
            return fail("expected an exception, got " + value);
        } catch (AssertionError e) {
            throw e;
        } catch (Throwable e) {
            return e;
        }
    }

    private static <T> T promptly(String what, ThrowingSupplier<T> work) {
        return assertTimeoutPreemptively(HANG_GUARD, work, what + " did not return within " + HANG_GUARD.toSeconds()
                + " s although every timeout is 300 ms");
    }

    /** Subscription counts as {@code CLIENT LIST} reports them. */
    protected record Subscriptions(long sub, long psub, long ssub) {
        long total() {
            return sub + psub + ssub;
        }
    }

    protected sealed interface Event permits Message, PatternMessage, Resubscribed {
    }

    protected record Message(String channel, String payload) implements Event {
    }

    protected record PatternMessage(String pattern, String channel, String payload) implements Event {
    }

    protected record Resubscribed() implements Event {
    }

    /** Records what a subscription delivers, in order. */
    protected static final class Recorder implements PubSubListener {

        private final List<Event> events = new CopyOnWriteArrayList<>();

        @Override
        public void message(String channel, String payload) {
            events.add(new Message(channel, payload));
        }

        @Override
        public void patternMessage(String pattern, String channel, String payload) {
            events.add(new PatternMessage(pattern, channel, payload));
        }

        @Override
        public void resubscribed() {
            events.add(new Resubscribed());
        }

        public List<Event> events() {
            return List.copyOf(events);
        }

        public void awaitEvent(Event expected) {
            try {
                patiently().until(() -> events.contains(expected));
            } catch (ConditionTimeoutException e) {
                throw new AssertionError("no " + expected + " within " + PATIENCE.toSeconds() + " s; delivered: " + events,
                        e);
            }
        }
    }
}
