package dev.pigeonhole.adapter.redis;

import dev.pigeonhole.domain.model.StoreUnavailableException;
import dev.pigeonhole.testsupport.redis.LocalRedisCluster;
import dev.pigeonhole.testsupport.redis.LocalRedisServer;
import dev.pigeonhole.testsupport.redis.RedisNode;
import dev.pigeonhole.testsupport.redis.RedisServers;
import dev.pigeonhole.testsupport.redis.RedisTarget;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import static dev.pigeonhole.adapter.redis.RedisTestSettings.endpoint;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * What every {@link RedisDriver} makes of a Redis that answers but refuses: the same typed error
 * with the same message on Jedis and on Lettuce, single node and cluster. Each expected message is
 * written out here once, so two drivers pass only by saying the same thing.
 *
 * <p>On a cluster the credentials case is a cluster that requires a password the settings do
 * not give ({@code NOAUTH}); a wrong password, an unknown user and a missing permission on a
 * cluster are {@code SecuredClusterTest}'s, on a cluster started with ACL users. One thing cannot
 * be produced on a cluster with these drivers, and the cluster tests say what they check instead:
 * <ul>
 * <li>{@code READONLY}: a cluster replica answers a write with {@code MOVED} to its master, which
 * the drivers follow, and gives {@code READONLY} only to a client that sent {@code READONLY} to
 * read from replicas, which these drivers never do. The closest refusal a cluster gives them is
 * a master that refuses writes ({@code min-replicas-to-write} with no replica:
 * {@code NOREPLICAS}).</li>
 * </ul>
 */
@Timeout(120)
public abstract class RedisRefusalContract {

    private static final Duration TIMEOUT = Duration.ofSeconds(1);
    private static final RedisFunction WRITE = InlineFunction.of("write", "return redis.call('SET', KEYS[1], ARGV[1])");
    private static final RedisFunction READ = InlineFunction.reading("read", "return redis.call('GET', KEYS[1])");

    /** A new driver under test, connected per {@code settings}. */
    protected abstract RedisDriver newDriver(RedisSettings settings);

    /** True to run against a cluster, false for a single node. */
    protected abstract boolean cluster();

    private final List<AutoCloseable> opened = new ArrayList<>();

    @AfterEach
    void closeEverything() throws Exception {
        List<AutoCloseable> reversed = new ArrayList<>(opened);
        Collections.reverse(reversed);
        for (AutoCloseable closeable : reversed) {
            closeable.close();
        }
    }

    @Test
    void credentials_redis_rejects_make_every_call_store_unavailable_called_a_misconfiguration() {
        String password = "pw-" + RedisTarget.newClientName();
        Refused refused = cluster() ? clusterRequiringAPassword(password) : userWithAnotherPassword(password);
        RedisDriver driver = track(newDriver(refused.settings()));
        String endpoint = refused.settings().endpoint().toString();

        Throwable run = catchThrowable(() -> driver.run(call(WRITE, "k", "v")));

        assertThat(run).isInstanceOf(StoreUnavailableException.class)
                .hasMessageStartingWith("Redis at " + endpoint + " could not serve function " + WRITE.name() + ": " + refused.meaning()
                        + " (" + refused.code() + " ")
                .hasMessageNotContaining(password);
        assertRefused(refused, password, () -> driver.runAll(List.of(call(WRITE, "a", "v"), call(READ, "b"))));
        assertRefused(refused, password, () -> driver.publish("news", "x", false));
        assertRefused(refused, password, () -> {
            try (PubSubConnection pubsub = track(driver.openPubSub(new Ignoring()))) {
                pubsub.subscribe("news", false);
            }
        });
        assertThat(driver.ping()).isFalse();
    }

    /**
     * False for a client that will not work with a replica alone: GLIDE's single-node client looks
     * for a primary among its addresses and fails every request when it finds none.
     */
    protected boolean servesALoneReplica() {
        return true;
    }

    @Test
    void a_node_that_refuses_writes_makes_a_write_store_unavailable_and_still_serves_reads() {
        Refused refused = cluster() ? clusterRefusingWrites() : readOnlyReplica();
        RedisDriver driver = track(newDriver(refused.settings()));
        String endpoint = refused.settings().endpoint().toString();
        if (!cluster() && !servesALoneReplica()) {
            assertThat(catchThrowable(() -> driver.run(call(WRITE, "k", "v")))).isInstanceOf(StoreUnavailableException.class)
                    .hasMessageStartingWith("Redis at " + endpoint + " could not serve function " + WRITE.name() + ": ");
            assertThat(catchThrowable(() -> driver.run(call(READ, "k")))).as("a read on a replica alone")
                    .isInstanceOf(StoreUnavailableException.class);
            assertThat(driver.ping()).isFalse();
            return;
        }

        Throwable write = catchThrowable(() -> driver.run(call(WRITE, "k", "v")));

        assertThat(write).isInstanceOf(StoreUnavailableException.class)
                .hasMessageStartingWith("Redis at " + endpoint + " could not serve function " + WRITE.name() + ": " + refused.meaning()
                        + " (" + refused.code() + " ");
        assertThatThrownBy(() -> driver.runAll(List.of(call(READ, "k"), call(WRITE, "k", "v"))))
                .isInstanceOf(StoreUnavailableException.class)
                .hasMessageContaining(refused.meaning());
        assertThat(driver.run(call(READ, "k"))).as("a read on the same node").isEqualTo(refused.readable());
        assertThat(driver.ping()).isTrue();
    }

    // ---- the refusing servers ----------------------------------------------------------------

    /** The shared single node, and a user of it whose password the settings get wrong. */
    private Refused userWithAnotherPassword(String password) {
        RedisTarget redis = RedisServers.single();
        RedisSettings.Single node = (RedisSettings.Single) endpoint(redis);
        String user = "ph-user-" + RedisTarget.newClientName();
        redis.admin("ACL", "SETUSER", user, "on", ">" + password + "-right", "~*", "&*", "+@all");
        opened.add(() -> redis.admin("ACL", "DELUSER", user));
        String url = "redis://" + user + ":" + password + "@" + node.url().getHost() + ":" + node.port();
        return new Refused(settings(RedisSettings.Endpoint.single(url)), "WRONGPASS",
                "misconfigured: Redis rejects the configured user name or password", null);
    }

    /** A private cluster whose nodes require a password the settings do not give. */
    private Refused clusterRequiringAPassword(String password) {
        LocalRedisCluster cluster = track(LocalRedisCluster.start());
        cluster.requirePassword(password);
        return new Refused(settings(endpoint(cluster.target())), "NOAUTH",
                "misconfigured: Redis requires a password and none is configured", null);
    }

    /** A private master and its replica, with a key written on the master; the settings name the replica. */
    private Refused readOnlyReplica() {
        LocalRedisServer master = track(LocalRedisServer.start());
        LocalRedisServer replica = track(LocalRedisServer.startReplicaOf(master));
        master.target().admin("SET", "k", "from the master");
        // A replica takes its libraries from its master, and cannot load one itself.
        loadTestLibraries(master.target(), master.target().masters().getFirst());
        master.target().admin("WAIT", "1", "5000");
        return new Refused(settings(endpoint(replica.target())), "READONLY",
                "the node is a read-only replica: the configured address names a replica, or a failover is under way",
                "from the master");
    }

    /** A private cluster whose masters refuse writes for want of a replica. */
    private Refused clusterRefusingWrites() {
        LocalRedisCluster cluster = track(LocalRedisCluster.start());
        for (RedisNode master : cluster.target().masters()) {
            // Loading a library is a write, refused as well once the master wants replicas.
            loadTestLibraries(cluster.target(), master);
            cluster.target().command(master, "CONFIG", "SET", "min-replicas-to-write", "1");
        }
        return new Refused(settings(endpoint(cluster.target())), "NOREPLICAS",
                "too few replicas are connected for Redis to accept writes", null);
    }

    // ---- helpers ---------------------------------------------------------------------------

    private static void loadTestLibraries(RedisTarget target, RedisNode node) {
        for (RedisFunction function : List.of(WRITE, READ)) {
            target.command(node, "FUNCTION", "LOAD", "REPLACE", function.library().source());
        }
    }

    private static void assertRefused(Refused refused, String password, Runnable work) {
        Throwable thrown = catchThrowable(work::run);
        assertThat(thrown).isInstanceOf(StoreUnavailableException.class)
                .hasMessageStartingWith("Redis at " + refused.settings().endpoint() + " could not serve ")
                .hasMessageContaining(": " + refused.meaning() + " (" + refused.code() + " ")
                .hasMessageNotContaining(password);
    }

    private static RedisSettings settings(RedisSettings.Endpoint endpoint) {
        return RedisSettings.of(endpoint).withTimeouts(TIMEOUT, TIMEOUT).withClientName(RedisTarget.newClientName());
    }

    private static FunctionCall call(RedisFunction script, String key, String... args) {
        return new FunctionCall(script, List.of(key), List.of(args));
    }

    private <T extends AutoCloseable> T track(T closeable) {
        opened.add(closeable);
        return closeable;
    }

    /**
     * A Redis that refuses, and what every driver must say about it.
     *
     * @param code     the error code Redis answers with
     * @param meaning  the words every message gives for it
     * @param readable what a read of {@code k} answers there, where reads are served
     */
    private record Refused(RedisSettings settings, String code, String meaning, String readable) {
    }

    private static final class Ignoring implements PubSubListener {
        @Override
        public void message(String channel, String payload) {
        }

        @Override
        public void patternMessage(String pattern, String channel, String payload) {
        }

        @Override
        public void resubscribed() {
        }
    }
}
