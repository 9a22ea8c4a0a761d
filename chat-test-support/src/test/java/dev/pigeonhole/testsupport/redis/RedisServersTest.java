package dev.pigeonhole.testsupport.redis;

import org.junit.jupiter.api.Test;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RedisServersTest {

    @Test
    void the_single_node_answers_ping_and_is_the_same_on_every_call() {
        RedisTarget target = RedisServers.single();

        assertThat(target.admin("PING")).isEqualTo("PONG");
        assertThat(target.isCluster()).isFalse();
        assertThat(target.address()).startsWith("redis://");
        assertThat(RedisServers.single()).isSameAs(target);
    }

    @Test
    void replies_come_back_as_text_numbers_lists_and_nil_and_an_error_reply_is_thrown() {
        RedisTarget target = RedisServers.single();
        String key = target.newPrefix() + "list";
        RedisNode node = target.masters().getFirst();

        assertThat(target.command(node, "RPUSH", key, "caf\u00e9", "")).isEqualTo(2L);
        assertThat(target.command(node, "LRANGE", key, "0", "-1")).isEqualTo(List.of("caf\u00e9", ""));
        assertThat(target.command(node, "GET", key + ":absent")).isNull();
        assertThatThrownBy(() -> target.command(node, "GET", key)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("WRONGTYPE");
        target.admin("DEL", key);
    }

    @Test
    void keys_with_a_prefix_are_only_that_prefix() {
        RedisTarget target = RedisServers.single();
        String mine = target.newPrefix();
        String other = target.newPrefix();
        target.admin("SET", mine + "a", "1");
        target.admin("SET", mine + "b", "2");
        target.admin("SET", other + "a", "3");

        assertThat(mine).matches("t[0-9a-f]{7}:").isNotEqualTo(other);
        assertThat(target.keysWithPrefix(mine)).containsExactlyInAnyOrder(mine + "a", mine + "b");
        target.admin("DEL", mine + "a", mine + "b", other + "a");
    }

    @Test
    void command_calls_count_what_the_server_ran() {
        RedisTarget target = RedisServers.single();
        long before = target.commandCalls("ECHO");

        target.admin("ECHO", "one");
        target.admin("ECHO", "two");

        assertThat(target.commandCalls("echo") - before).isEqualTo(2);
    }

    @Test
    void function_flush_makes_the_server_forget_its_libraries() {
        RedisTarget target = RedisServers.single();
        String library = "fixture_" + target.newPrefix().replace(":", "");
        target.admin("FUNCTION", "LOAD", "#!lua name=" + library + "\nredis.register_function('" + library
                + "_f', function() return 1 end)");
        assertThat(target.admin("FUNCTION", "LIST", "LIBRARYNAME", library)).contains(library + "_f");

        target.functionFlush();

        assertThat(target.admin("FUNCTION", "LIST", "LIBRARYNAME", library)).isEqualTo("[]");
    }

    @Test
    void kill_connections_cuts_only_the_named_connections_of_that_type() {
        RedisTarget target = RedisServers.single();
        String name = RedisTarget.newClientName();
        URI node = URI.create(target.address());
        try (RespConnection normal = RespConnection.open(node, Duration.ofSeconds(5), name);
             RespConnection subscriber = RespConnection.open(node, Duration.ofSeconds(5), name)) {
            subscriber.send("SUBSCRIBE", name + ":channel");
            assertThat(subscriber.read()).isEqualTo(List.of("subscribe", name + ":channel", 1L));

            assertThat(target.connectionCount(name, "pubsub")).isEqualTo(1);
            assertThat(target.connectionCount(name, null)).isEqualTo(2);
            assertThat(target.killConnections(name, "pubsub")).isEqualTo(1);
            assertThatThrownBy(subscriber::read).as("the subscriber's connection ended").isInstanceOf(RuntimeException.class);
            assertThat(target.killConnections(name, "pubsub")).isZero();
            assertThat(normal.call("PING")).as("a normal connection survives a pubsub kill").isEqualTo("PONG");

            assertThat(target.killConnections(name, "normal")).isEqualTo(1);
            assertThatThrownBy(() -> normal.call("PING")).isInstanceOf(RuntimeException.class);
            assertThat(target.clients(name)).isEmpty();
        }
    }

    @Test
    void the_cluster_is_ok_on_every_master_and_spreads_keys_over_them() {
        RedisTarget cluster = RedisServers.cluster();

        assertThat(cluster.isCluster()).isTrue();
        assertThat(cluster.masters()).hasSizeGreaterThanOrEqualTo(3);
        assertThat(cluster.commandOnMasters("CLUSTER", "INFO"))
                .allSatisfy(info -> assertThat(info.toString()).contains("cluster_state:ok"));

        String prefix = cluster.newPrefix();
        IntStream.range(0, 30).forEach(i -> cluster.command(cluster.masterOf(prefix + i), "SET", prefix + i, "v"));

        Map<RedisNode, Set<String>> byMaster = cluster.keysWithPrefixByMaster(prefix);
        assertThat(cluster.keysWithPrefix(prefix)).hasSize(30);
        assertThat(byMaster.values().stream().filter(keys -> !keys.isEmpty()).count()).isGreaterThanOrEqualTo(2);
        byMaster.forEach((master, keys) -> keys.forEach(key -> cluster.command(master, "DEL", key)));
    }

    @Test
    void a_local_server_stops_like_a_crash_and_restarts_on_the_same_port() {
        try (LocalRedisServer server = LocalRedisServer.start()) {
            int port = server.port();
            String key = server.target().newPrefix() + "k";
            server.target().admin("SET", key, "v");

            server.stop();

            assertThat(server.isRunning()).isFalse();
            assertThatThrownBy(() -> server.target().admin("PING")).isInstanceOf(RuntimeException.class);

            server.restart();

            assertThat(server.isRunning()).isTrue();
            assertThat(server.port()).isEqualTo(port);
            assertThat(server.target().admin("PING")).isEqualTo("PONG");
            assertThat(server.target().admin("GET", key)).as("nothing persists across a crash").isNull();

            server.close();
            assertThat(server.isRunning()).isFalse();
            server.close();
        }
    }

    @Test
    void a_durable_local_server_keeps_what_it_acknowledged_across_a_crash() {
        try (LocalRedisServer server = LocalRedisServer.startDurable()) {
            String key = server.target().newPrefix() + "k";
            server.target().admin("SET", key, "kept");

            server.stop();
            server.restart();

            assertThat(server.target().admin("GET", key)).isEqualTo("kept");
        }
    }

    @Test
    void a_local_replica_holds_its_masters_data_and_refuses_writes() {
        try (LocalRedisServer master = LocalRedisServer.start();
             LocalRedisServer replica = LocalRedisServer.startReplicaOf(master)) {
            String key = master.target().newPrefix() + "k";
            master.target().admin("SET", key, "from the master");
            assertThat(master.target().admin("WAIT", "1", "5000")).as("replicas that acknowledged the write").isEqualTo("1");

            assertThat(replica.target().admin("GET", key)).isEqualTo("from the master");
            assertThatThrownBy(() -> replica.target().admin("SET", key, "here"))
                    .isInstanceOf(IllegalStateException.class).hasMessageContaining("READONLY");
            assertThat(replica.target().admin("INFO", "replication")).contains("role:slave", "master_port:" + master.port());
        }
    }

    @Test
    void a_private_cluster_can_require_a_password_and_stops_with_its_owner() {
        RedisTarget target;
        try (LocalRedisCluster cluster = LocalRedisCluster.start()) {
            target = cluster.target();
            assertThat(target.masters()).hasSize(3);
            assertThat(target.commandOnMasters("CLUSTER", "INFO"))
                    .allSatisfy(info -> assertThat(info.toString()).contains("cluster_state:ok"));

            cluster.requirePassword("fixture-" + target.newPrefix());

            assertThatThrownBy(() -> target.admin("PING")).hasMessageContaining("NOAUTH");
        }
        assertThatThrownBy(() -> target.admin("PING")).as("every server stopped").isInstanceOf(RuntimeException.class)
                .hasMessageNotContaining("NOAUTH");
    }
}
