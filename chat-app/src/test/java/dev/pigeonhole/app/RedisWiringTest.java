package dev.pigeonhole.app;

import dev.pigeonhole.adapter.redis.KeyLayout;
import dev.pigeonhole.adapter.redis.RedisClientKind;
import dev.pigeonhole.adapter.redis.RedisSettings;
import dev.pigeonhole.domain.model.ChatId;
import dev.pigeonhole.domain.model.StoreUnavailableException;
import dev.pigeonhole.domain.model.UserId;
import dev.pigeonhole.domain.model.chat.Access;
import dev.pigeonhole.domain.model.chat.ChatSummary;
import dev.pigeonhole.domain.model.chat.PendingChat;
import dev.pigeonhole.domain.port.in.chat.CreateChat;
import dev.pigeonhole.domain.port.in.chat.SendMessage;
import dev.pigeonhole.domain.port.in.consent.AcceptInvitation;
import dev.pigeonhole.testsupport.redis.RedisServers;
import dev.pigeonhole.testsupport.redis.RedisTarget;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import picocli.CommandLine;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * The composition root on Redis: each client and layout wired, what a send costs a cluster with and
 * without patterns, and a Redis that is not there.
 */
class RedisWiringTest {

    static Stream<Arguments> wirings() {
        return Stream.of(
                Arguments.of(RedisClientKind.JEDIS, RedisConfig.Layout.TAGGED, false),
                Arguments.of(RedisClientKind.LETTUCE, RedisConfig.Layout.TAGGED, false),
                Arguments.of(RedisClientKind.LETTUCE, RedisConfig.Layout.BOOK, false),
                Arguments.of(RedisClientKind.REDISSON, RedisConfig.Layout.TAGGED, false),
                Arguments.of(RedisClientKind.JEDIS, RedisConfig.Layout.TAGGED, true),
                Arguments.of(RedisClientKind.LETTUCE, RedisConfig.Layout.TAGGED, true),
                Arguments.of(RedisClientKind.REDISSON, RedisConfig.Layout.TAGGED, true),
                Arguments.of(RedisClientKind.GLIDE, RedisConfig.Layout.TAGGED, false),
                Arguments.of(RedisClientKind.GLIDE, RedisConfig.Layout.TAGGED, true));
    }

    @ParameterizedTest(name = "{0}, {1} keys, cluster: {2}")
    @MethodSource("wirings")
    void the_books_scenario_plays_the_same_on_redis(RedisClientKind client, RedisConfig.Layout layout,
                                                    boolean cluster) throws Exception {
        RedisTarget target = cluster ? RedisServers.cluster() : RedisServers.single();
        AppConfig config = AppConfig.defaults().withRedis(RedisConfig.defaults()
                .withClient(client).withEndpoint(TestConfigs.endpoint(target)).withLayout(layout)
                .withKeyPrefix(target.newPrefix()));

        List<PendingChat> pending;
        try (Pigeonhole app = Pigeonhole.start(config, InstantSource.system())) {
            pending = new BookScenario(app, new PrintWriter(new StringWriter())).run();
        }

        assertThat(pending).singleElement().satisfies(chat -> {
            assertThat(chat.unread()).isEqualTo(1);
            assertThat(chat.messages()).singleElement().satisfies(m -> assertThat(m.id()).isEqualTo(6));
        });
    }

    /** A name given in the configuration is the one the instance's connections carry in CLIENT LIST. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("clients")
    void the_configured_client_name_names_the_instances_connections(RedisClientKind client) throws Exception {
        RedisTarget target = RedisServers.single();
        String name = RedisTarget.newClientName();
        AppConfig config = AppConfig.defaults().withRedis(RedisConfig.defaults().withClient(client)
                .withEndpoint(TestConfigs.endpoint(target)).withKeyPrefix(target.newPrefix()).withClientName(name));

        try (Pigeonhole app = Pigeonhole.start(config, InstantSource.system())) {
            app.createChat().create(new CreateChat.Command(UserId.of("alice"), Set.of(UserId.of("bob")),
                    Optional.empty(), "hello"));

            assertThat(target.clients(name)).isNotEmpty();
        }
        assertThat(RedisConfig.defaults().clientName()).isEqualTo("pigeonhole");
    }

    static Stream<RedisClientKind> clients() {
        return Stream.of(RedisClientKind.JEDIS, RedisClientKind.LETTUCE);
    }

    /**
     * The operator's option reaches the store: on a cluster a send goes out once, as SPUBLISH to its
     * chat's shard, unless patterns are asked for, which adds a classic PUBLISH. Counted by the
     * servers (INFO commandstats over the masters); the suite runs one test at a time.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("clusterPatternOptions")
    void on_a_cluster_a_send_is_one_spublish_unless_the_operator_asks_for_patterns(
            List<String> option, long classicPublishes) throws Exception {
        RedisTarget target = RedisServers.cluster();
        Main.Demo demo = new Main.Demo();
        List<String> args = new ArrayList<>(List.of("--store", "redis", "--redis-cluster", target.address(),
                "--key-prefix", target.newPrefix()));
        args.addAll(option);
        new CommandLine(demo).setCaseInsensitiveEnumValuesAllowed(true).parseArgs(args.toArray(String[]::new));
        UserId alice = UserId.of("alice");

        try (Pigeonhole app = Pigeonhole.start(demo.store.config(), InstantSource.system())) {
            ChatId chat = app.createChat().create(new CreateChat.Command(alice, Set.of(UserId.of("bob")),
                    Optional.empty(), Access.PRIVATE, "hi")).chat();
            long spublish = target.commandCalls("spublish");
            long publish = target.commandCalls("publish");

            app.sendMessage().send(new SendMessage.Command(chat, alice, "hello"));

            assertThat(target.commandCalls("spublish") - spublish).as("SPUBLISH calls").isEqualTo(1);
            assertThat(target.commandCalls("publish") - publish).as("PUBLISH calls").isEqualTo(classicPublishes);
        }
    }

    static Stream<Arguments> clusterPatternOptions() {
        return Stream.of(
                Arguments.of(List.of(), 0L),
                Arguments.of(List.of("--redis-cluster-patterns"), 1L),
                Arguments.of(List.of("--redis-cluster-patterns=false"), 0L));
    }

    /** A join's second step lost for Bob: the sweep around Alice, who is online, lists the chat for him again. */
    @Test
    void the_index_sweep_around_the_users_online_mends_a_co_members_lost_index_entry() throws Exception {
        RedisTarget target = RedisServers.single();
        String prefix = target.newPrefix();
        AppConfig config = AppConfig.defaults().withRedis(RedisConfig.defaults()
                .withEndpoint(TestConfigs.endpoint(target)).withKeyPrefix(prefix));
        UserId alice = UserId.of("alice");
        UserId bob = UserId.of("bob");

        try (Pigeonhole app = Pigeonhole.start(config, InstantSource.system())) {
            ChatId chat = app.createChat().create(new CreateChat.Command(alice, Set.of(bob), Optional.empty(),
                    Access.PRIVATE, "hi")).chat();
            app.acceptInvitation().accept(new AcceptInvitation.Command(bob, chat));
            app.touchPresence().touch(alice);
            target.admin("ZREM", KeyLayout.tagged(prefix).chatsOf(bob), chat.value());
            assertThat(app.listChats().chatsOf(bob)).isEmpty();

            assertThat(app.repairChatIndexes()).isEqualTo(1);

            assertThat(app.listChats().chatsOf(bob)).extracting(ChatSummary::chat).containsExactly(chat);
        }
    }

    @Test
    void in_memory_there_is_no_index_apart_from_the_chats_to_mend() throws Exception {
        try (Pigeonhole app = Pigeonhole.start(AppConfig.defaults(), InstantSource.system())) {
            app.createChat().create(new CreateChat.Command(UserId.of("alice"), Set.of(UserId.of("bob")),
                    Optional.empty(), Access.PRIVATE, "hi"));
            app.touchPresence().touch(UserId.of("alice"));

            assertThat(app.repairChatIndexes()).isZero();
        }
    }

    @Test
    void a_redis_that_does_not_answer_stops_the_start_with_the_stores_error() {
        RedisConfig nowhere = RedisConfig.defaults().withEndpoint(RedisSettings.Endpoint.single("redis://127.0.0.1:" + freePort()))
                .withTimeouts(Duration.ofMillis(300), Duration.ofMillis(300));

        assertTimeoutPreemptively(Duration.ofSeconds(10), () ->
                assertThatThrownBy(() -> Pigeonhole.start(AppConfig.defaults().withRedis(nowhere), InstantSource.system()))
                        .isInstanceOf(StoreUnavailableException.class)
                        .hasMessageContaining("Redis did not answer"));
    }

    @Test
    void the_demo_on_an_unreachable_redis_is_one_line_and_exit_status_3() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();

        int status = Main.run(new String[]{"demo", "--store", "redis", "--redis-url", "redis://127.0.0.1:" + freePort()},
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));

        assertThat(status).isEqualTo(3);
        assertThat(err.toString(StandardCharsets.UTF_8).strip()).startsWith("pigeonhole: Redis did not answer")
                .doesNotContain("\n").doesNotContain("Exception");
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
