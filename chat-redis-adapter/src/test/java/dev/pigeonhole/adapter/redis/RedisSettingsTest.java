package dev.pigeonhole.adapter.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** What every driver reads off a single node's URL. */
class RedisSettingsTest {

    @Test
    void a_url_names_host_port_database_and_tls() {
        RedisSettings.Single plain = RedisSettings.Endpoint.single("redis://cache.local");
        assertThat(plain.host()).isEqualTo("cache.local");
        assertThat(plain.port()).isEqualTo(6379);
        assertThat(plain.database()).isZero();
        assertThat(plain.tls()).isFalse();

        RedisSettings.Single secure = RedisSettings.Endpoint.single("rediss://[::1]:6380/2");
        assertThat(secure.host()).as("an IPv6 address without its brackets").isEqualTo("::1");
        assertThat(secure.database()).isEqualTo(2);
        assertThat(secure.tls()).isTrue();
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
}
