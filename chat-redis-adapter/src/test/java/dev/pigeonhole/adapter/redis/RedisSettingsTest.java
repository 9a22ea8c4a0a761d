package dev.pigeonhole.adapter.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What every driver reads off a single node's URL, and the TLS settings. */
class RedisSettingsTest {

    @Test
    void a_url_names_host_port_database_and_tls() {
        RedisSettings.Single plain = RedisSettings.Endpoint.single("redis://cache.local");
        assertThat(plain.host()).isEqualTo("cache.local");
        assertThat(plain.port()).isEqualTo(6379);
        assertThat(plain.database()).isZero();
        assertThat(plain.tls().enabled()).isFalse();

        RedisSettings.Single secure = RedisSettings.Endpoint.single("rediss://[::1]:6380/2");
        assertThat(secure.host()).as("an IPv6 address without its brackets").isEqualTo("::1");
        assertThat(secure.database()).isEqualTo(2);
        assertThat(secure.tls().enabled()).isTrue();
    }

    @Test
    void user_info_is_a_user_and_a_password_or_a_password_alone() {
        RedisSettings.Single both = RedisSettings.Endpoint.single("redis://alice:p%3Ass+word@h:1");
        assertThat(both.user()).isEqualTo("alice");
        assertThat(both.password()).as("percent-decoded, a plus kept").isEqualTo("p:ss+word");

        RedisSettings.Single alone = RedisSettings.Endpoint.single("redis://secret@h:1");
        assertThat(alone.user()).isEmpty();
        assertThat(alone.password()).isEqualTo("secret");

        RedisSettings.Single none = RedisSettings.Endpoint.single("redis://h:1");
        assertThat(none.user()).isEmpty();
        assertThat(none.password()).isEmpty();
    }

    @Test
    void a_path_that_is_no_database_number_is_refused() {
        assertThatThrownBy(() -> RedisSettings.Endpoint.single("redis://h:1/cache").database())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("database number");
    }

    @Test
    void credentials_apart_from_the_url_reach_a_single_node_and_a_cluster_and_never_show_their_password() {
        RedisSettings.Credentials pigeon = new RedisSettings.Credentials("pigeon", "hush-42");

        RedisSettings.Single single = RedisSettings.Endpoint.single("redis://h:1").withCredentials(pigeon);
        RedisSettings.Cluster cluster = RedisSettings.Endpoint.cluster("h:1,h:2").withCredentials(pigeon);

        assertThat(single.user()).isEqualTo("pigeon");
        assertThat(single.password()).isEqualTo("hush-42");
        assertThat(cluster.credentials()).isEqualTo(pigeon);
        assertThat(RedisSettings.Endpoint.cluster("h:1").credentials()).isEqualTo(RedisSettings.Credentials.NONE);
        for (Object shown : new Object[] {pigeon, single, cluster, RedisSettings.of(single), RedisSettings.of(cluster),
                RedisSettings.Endpoint.single("redis://pigeon:hush-42@h:1")}) {
            assertThat(shown.toString()).doesNotContain("hush-42");
        }
        assertThat(pigeon.toString()).isEqualTo("pigeon:****");
    }

    @Test
    void a_url_with_credentials_takes_no_others_and_a_user_needs_a_password() {
        assertThatThrownBy(() -> RedisSettings.Endpoint.single("redis://a:b@h:1")
                .withCredentials(new RedisSettings.Credentials("pigeon", "hush")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("takes no other credentials");
        assertThatThrownBy(() -> new RedisSettings.Credentials("pigeon", ""))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("the Redis user 'pigeon' needs a password");
    }

    @Test
    void tls_keeps_its_files_and_shows_in_the_endpoint() {
        RedisSettings.Tls tls = new RedisSettings.Tls(true, Path.of("ca.pem"), null, null);
        RedisSettings.Single single = RedisSettings.Endpoint.single("redis://h:1").withTls(tls);
        RedisSettings.Cluster cluster = RedisSettings.Endpoint.cluster("h:1,h:2").withTls(tls);

        assertThat(single.tls()).isEqualTo(tls);
        assertThat(single).hasToString("rediss://h:1");
        assertThat(cluster.tls()).isEqualTo(tls);
        assertThat(RedisSettings.Endpoint.single("rediss://h:1").withTls(RedisSettings.Tls.OFF).tls().enabled())
                .as("a rediss:// URL keeps TLS on").isTrue();
    }

    @Test
    void a_client_certificate_comes_with_its_key_and_files_need_tls_on() {
        assertThatThrownBy(() -> new RedisSettings.Tls(true, null, Path.of("client.pem"), null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("a Redis client certificate and its key come together");
        assertThatThrownBy(() -> new RedisSettings.Tls(false, Path.of("ca.pem"), null, null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("Redis TLS files are given but TLS is off");
    }

    @Test
    void a_tls_file_that_is_not_pem_is_refused_naming_it(@TempDir Path dir) throws IOException {
        Path notPem = Files.writeString(dir.resolve("ca.pem"), "not a certificate");

        assertThatThrownBy(() -> RedisTls.of(new RedisSettings.Tls(true, notPem, null, null)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("cannot read the Redis TLS CA file " + notPem + ": ");
    }
}
