package dev.pigeonhole.adapter.redis;

import dev.pigeonhole.domain.model.StoreUnavailableException;
import dev.pigeonhole.testsupport.redis.RedisServers;
import dev.pigeonhole.testsupport.redis.RedisTarget;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static dev.pigeonhole.adapter.redis.RedisTestSettings.settings;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The library's version rules, on libraries of the test's own (Redis's function names are one
 * namespace, and the adapter's own library must stay as the other tests expect it), through the
 * same code that installs the adapter's.
 */
@Timeout(60)
class FunctionLibraryTest {

    /**
     * The digest of the adapter's library text at {@link Functions#VERSION}. A change to any of its
     * files changes it: raise the version with the change, then set this to the new digest, so that
     * servers of the old release refuse the new library rather than call code they do not know.
     */
    private static final String DIGEST_OF_THIS_VERSION = "6dcddbfce7e8b8b45f98b22f95e8ce7aaf895118b3f5832e944bcb368b6b78e3";

    @Test
    void the_library_text_is_the_one_its_version_names() throws Exception {
        String digest = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                .digest(Functions.LIBRARY.source().getBytes(StandardCharsets.UTF_8)));

        assertThat(digest)
                .as("the library's text changed: raise Functions.VERSION (now %d) and set DIGEST_OF_THIS_VERSION",
                        Functions.VERSION)
                .isEqualTo(DIGEST_OF_THIS_VERSION);
    }

    @Test
    void every_function_the_adapter_calls_is_registered_under_its_version() {
        RedisTarget redis = RedisServers.single();
        try (RedisDriver driver = Drivers.open(RedisClientKind.LETTUCE, settings(redis))) {
            Functions.install(driver);

            String listed = redis.admin("FUNCTION", "LIST", "LIBRARYNAME", "pigeonhole");
            for (RedisFunction function : List.of(Functions.CHAT_EXISTS, Functions.QUOTA_TAKE, Functions.CONSENT_REPLACE,
                    Functions.PRESENCE_AMONG, Functions.writing("chat_send"), Functions.writing("book_chat_open"),
                    Functions.reading("chats_pending"), Functions.writing("mailbox_deliver"))) {
                assertThat(listed).contains(function.name());
            }
            assertThat(redis.admin("FCALL_RO", "pigeonhole_version", "0")).isEqualTo(Integer.toString(Functions.VERSION));
        }
    }

    @ParameterizedTest
    @EnumSource(RedisClientKind.class)
    void a_node_without_the_library_gets_it_and_an_older_one_is_replaced(RedisClientKind client) {
        RedisTarget redis = RedisServers.single();
        String name = uniqueName();
        try (RedisDriver driver = Drivers.open(client, settings(redis))) {
            version(name, 1).install(driver);
            assertThat(redis.admin("FCALL_RO", name + "_version", "0")).isEqualTo("1");

            FunctionLibrary second = version(name, 2);
            second.install(driver);

            assertThat(redis.admin("FCALL_RO", name + "_version", "0")).isEqualTo("2");
            assertThat(driver.run(call(second, redis))).isEqualTo("version 2");
        }
    }

    @ParameterizedTest
    @EnumSource(RedisClientKind.class)
    void a_newer_library_is_refused_and_left_in_place(RedisClientKind client) {
        RedisTarget redis = RedisServers.single();
        String name = uniqueName();
        try (RedisDriver driver = Drivers.open(client, settings(redis))) {
            version(name, 3).install(driver);

            assertThatThrownBy(() -> version(name, 2).install(driver))
                    .isInstanceOf(StoreUnavailableException.class)
                    .hasMessageContaining("holds version 3 of the " + name + " function library, newer than this "
                            + "server's version 2");
            assertThat(redis.admin("FCALL_RO", name + "_version", "0")).isEqualTo("3");
        }
    }

    @ParameterizedTest
    @EnumSource(RedisClientKind.class)
    void a_call_to_a_node_that_lost_the_library_loads_it_and_runs_once(RedisClientKind client) {
        RedisTarget redis = RedisServers.single();
        String name = uniqueName();
        FunctionLibrary library = FunctionLibrary.of(name, 1,
                "redis.register_function('" + name + "_incr', function(keys) return redis.call('INCR', keys[1]) end)\n");
        String key = redis.newPrefix() + "n";
        try (RedisDriver driver = Drivers.open(client, settings(redis))) {
            FunctionCall incr = new FunctionCall(library.writing(name + "_incr"), List.of(key), List.of());
            assertThat(driver.run(incr)).isEqualTo(1L);
            redis.admin("FUNCTION", "DELETE", name);

            assertThat(driver.runAll(List.of(incr, incr))).containsExactly(2L, 3L);
            redis.admin("FUNCTION", "DELETE", name);
            assertThat(driver.run(incr)).isEqualTo(4L);
        }
    }

    private static FunctionLibrary version(String name, int version) {
        return FunctionLibrary.of(name, version, "redis.register_function({ function_name = '" + name
                + "_which', callback = function() return 'version ' .. VERSION end, flags = { 'no-writes' } })\n");
    }

    private static FunctionCall call(FunctionLibrary library, RedisTarget redis) {
        return new FunctionCall(library.reading(library.name() + "_which"), List.of(redis.newPrefix() + "k"), List.of());
    }

    private static String uniqueName() {
        return "test_versions_" + HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextInt());
    }
}
