package dev.pigeonhole.adapter.redis;

import dev.pigeonhole.domain.model.StoreUnavailableException;
import dev.pigeonhole.domain.model.limits.Limits;
import dev.pigeonhole.tck.ChatHistoryContract;
import dev.pigeonhole.tck.ChatMessagesContract;
import dev.pigeonhole.tck.StoreFixture;
import dev.pigeonhole.testsupport.redis.RedisNode;
import dev.pigeonhole.testsupport.redis.RedisTarget;
import dev.pigeonhole.testsupport.redis.SecuredRedis;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * Every client against a Redis that admits only signed-in users, as whom the README's ACL line
 * creates: the driver contract and the messages and history contracts pass with exactly those permissions, and
 * a wrong password, an unknown user, no password and a missing permission each make a call
 * {@link StoreUnavailableException} saying which, without the password. One Redis per subclass
 * ({@link #secured()}), a single node or a cluster, serves every client.
 */
@Timeout(120)
// One instance for the class, shared by its nested contracts, so it holds the one Redis they use.
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class SecuredRedisContracts {

    /**
     * The key prefix the ACL grants: every prefix {@link RedisTarget#newPrefix()} gives starts with
     * it, so each test still keeps its keys apart from the others'.
     */
    static final String ACL_PREFIX = "t";
    private static final Duration TIMEOUT = Duration.ofSeconds(1);
    private static final FunctionCall WRITE = new FunctionCall(
            InlineFunction.of("secured_write", "return redis.call('SET', KEYS[1], ARGV[1])"), List.of("t:{k}"), List.of("v"));

    /** The Redis of this class, started on first use and stopped once every nested contract has run. */
    private SecuredRedis redis;

    /** Starts the Redis this class's contracts run against. */
    protected abstract SecuredRedis start();

    /** The Redis of this class, started on first use. */
    protected final synchronized SecuredRedis secured() {
        if (redis == null) {
            redis = start();
        }
        return redis;
    }

    /** After every nested class: Redis must have refused the README's user nothing, then it stops. */
    @AfterAll
    final synchronized void stop() {
        if (redis != null) {
            try {
                assertNothingDenied(redis);
            } finally {
                redis.close();
                redis = null;
            }
        }
    }

    /** Settings that sign in as {@code user} with {@code password}, connections named {@code clientName}. */
    RedisSettings settings(String user, String password, String clientName) {
        SecuredRedis redis = secured();
        RedisSettings.Endpoint where = redis.admin().isCluster()
                ? RedisSettings.Endpoint.cluster(redis.address())
                : RedisSettings.Endpoint.single(redis.address());
        return RedisSettings.of(where.withCredentials(new RedisSettings.Credentials(user, password)).withTls(tls()))
                .withClientName(clientName);
    }

    /** How the clients reach {@link #secured()}: in the clear, unless a subclass says otherwise. */
    protected RedisSettings.Tls tls() {
        return RedisSettings.Tls.OFF;
    }

    /** Settings that sign in as the README's user. */
    RedisSettings settings(String clientName) {
        return settings(SecuredRedis.USER, secured().password(), clientName);
    }

    StoreFixture store(RedisClientKind client, Limits limits) {
        RedisTarget admin = secured().admin();
        return RedisStoreFixture.open(admin, this::settings, client, KeyLayout.tagged(admin.newPrefix()), limits,
                UnaryOperator.identity(), true);
    }

    /**
     * The driver contract, signed in. A pattern subscription is checked by Redis against the
     * user's channel patterns literally, not by matching, so the two patterns the contract
     * subscribes to are granted by name, as an operator grants a client's pattern; the server
     * itself subscribes to none.
     */
    abstract class SecuredDriverContract extends RedisDriverContract {
        @Override
        protected RedisTarget target() {
            return secured().admin();
        }

        @Override
        protected RedisSettings settingsFor(String clientName) {
            return settings(clientName);
        }

        @BeforeEach
        void grantThePatterns() {
            secured().setUser(SecuredRedis.USER, "&" + channel("p") + ".*", "&" + prefix + "pat.*");
        }
    }

    @Nested
    class JedisDriver extends SecuredDriverContract {
        @Override
        protected RedisDriver newDriver(RedisSettings settings) {
            return Drivers.open(RedisClientKind.JEDIS, settings);
        }
    }

    @Nested
    class JedisMessages extends ChatMessagesContract {
        @Override
        protected StoreFixture newStore(Limits limits) {
            return store(RedisClientKind.JEDIS, limits);
        }
    }

    @Nested
    class JedisHistory extends ChatHistoryContract {
        @Override
        protected StoreFixture newStore(Limits limits) {
            return store(RedisClientKind.JEDIS, limits);
        }
    }

    @Nested
    class LettuceDriver extends SecuredDriverContract {
        @Override
        protected RedisDriver newDriver(RedisSettings settings) {
            return Drivers.open(RedisClientKind.LETTUCE, settings);
        }
    }

    @Nested
    class LettuceMessages extends ChatMessagesContract {
        @Override
        protected StoreFixture newStore(Limits limits) {
            return store(RedisClientKind.LETTUCE, limits);
        }
    }

    @Nested
    class LettuceHistory extends ChatHistoryContract {
        @Override
        protected StoreFixture newStore(Limits limits) {
            return store(RedisClientKind.LETTUCE, limits);
        }
    }

    @Nested
    class RedissonDriver extends SecuredDriverContract {
        @Override
        protected RedisDriver newDriver(RedisSettings settings) {
            return Drivers.open(RedisClientKind.REDISSON, settings);
        }
    }

    @Nested
    class RedissonMessages extends ChatMessagesContract {
        @Override
        protected StoreFixture newStore(Limits limits) {
            return store(RedisClientKind.REDISSON, limits);
        }
    }

    @Nested
    class RedissonHistory extends ChatHistoryContract {
        @Override
        protected StoreFixture newStore(Limits limits) {
            return store(RedisClientKind.REDISSON, limits);
        }
    }

    @Nested
    class GlideDriver extends SecuredDriverContract {
        @Override
        protected RedisDriver newDriver(RedisSettings settings) {
            return Drivers.open(RedisClientKind.GLIDE, settings);
        }
    }

    @Nested
    class GlideMessages extends ChatMessagesContract {
        @Override
        protected StoreFixture newStore(Limits limits) {
            return store(RedisClientKind.GLIDE, limits);
        }
    }

    @Nested
    class GlideHistory extends ChatHistoryContract {
        @Override
        protected StoreFixture newStore(Limits limits) {
            return store(RedisClientKind.GLIDE, limits);
        }
    }

    @ParameterizedTest
    @EnumSource(RedisClientKind.class)
    void a_wrong_password_is_unavailable_called_a_rejected_password_and_never_shown(RedisClientKind client) {
        String wrong = "not-" + secured().password();

        assertRefused(client, settings(SecuredRedis.USER, wrong, RedisTarget.newClientName()),
                "misconfigured: Redis rejects the configured user name or password (WRONGPASS ", wrong);
    }

    @ParameterizedTest
    @EnumSource(RedisClientKind.class)
    void an_unknown_user_is_unavailable_called_a_rejected_user(RedisClientKind client) {
        assertRefused(client, settings("no-such-user", secured().password(), RedisTarget.newClientName()),
                "misconfigured: Redis rejects the configured user name or password (WRONGPASS ", secured().password());
    }

    @ParameterizedTest
    @EnumSource(RedisClientKind.class)
    void no_password_is_unavailable_called_a_missing_password(RedisClientKind client) {
        assertRefused(client, settings("", "", RedisTarget.newClientName()),
                "misconfigured: Redis requires a password and none is configured (NOAUTH ", secured().password());
    }

    /**
     * A user the README's line grants everything but FUNCTION LOAD: loading the library, which a
     * server does at start, names the user and the command.
     */
    @ParameterizedTest
    @EnumSource(RedisClientKind.class)
    void a_missing_permission_names_the_user_and_the_command(RedisClientKind client) {
        String user = "ph-noload-" + client.name().toLowerCase();
        String password = "pw-" + RedisTarget.newClientName();
        List<String> rules = new ArrayList<>(SecuredRedis.readmeAclRules(ACL_PREFIX, password));
        rules.add("-function|load");
        secured().setUser(user, rules.toArray(String[]::new));

        assertRefused(client, settings(user, password, RedisTarget.newClientName()),
                "misconfigured: the Redis user '" + user + "' may not run FUNCTION LOAD; see the README's ACL line (NOPERM ",
                password);
    }

    /**
     * After every test of the class: Redis refused the README's user nothing, not even what a
     * client asks in the background and shrugs off (a topology refresh, a server check), which no
     * test would notice. Refused sign-ins are the refusal tests' own doing, and one EVAL is
     * Redisson's: connecting to a single node, it probes the server with a script of two
     * GETs and takes a refusal in its stride; the adapter's calls are functions and need no EVAL,
     * so the README grants none.
     */
    static void assertNothingDenied(SecuredRedis redis) {
        List<String> denied = new ArrayList<>();
        for (RedisNode node : redis.admin().nodes()) {
            for (Object entry : (List<?>) redis.admin().command(node, "ACL", "LOG")) {
                List<?> fields = (List<?>) entry;
                Map<Object, Object> byName = new HashMap<>();
                for (int i = 0; i + 1 < fields.size(); i += 2) {
                    byName.put(fields.get(i), fields.get(i + 1));
                }
                boolean signIn = "auth".equals(byName.get("reason"));
                boolean redissonProbe = "command".equals(byName.get("reason")) && "eval".equals(byName.get("object"));
                if (SecuredRedis.USER.equals(byName.get("username")) && !signIn && !redissonProbe) {
                    denied.add(node + ": " + byName.get("reason") + " " + byName.get("object") + " (" + byName.get("client-info") + ")");
                }
            }
        }
        assertThat(denied).as("what Redis refused the README's user").isEmpty();
    }

    private static void assertRefused(RedisClientKind client, RedisSettings settings, String meaning, String password) {
        try (RedisDriver driver = Drivers.open(client, settings.withTimeouts(TIMEOUT, TIMEOUT))) {
            Throwable run = catchThrowable(() -> Functions.install(driver));
            Throwable call = catchThrowable(() -> driver.run(WRITE));

            assertThat(run).isInstanceOf(StoreUnavailableException.class)
                    .hasMessageStartingWith("Redis at " + settings.endpoint() + " could not serve ")
                    .hasMessageContaining(": " + meaning)
                    .hasMessageNotContaining(password);
            assertThat(call).isInstanceOf(StoreUnavailableException.class).hasMessageNotContaining(password);
        }
    }
}
