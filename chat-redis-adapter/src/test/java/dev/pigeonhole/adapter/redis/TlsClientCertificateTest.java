package dev.pigeonhole.adapter.redis;

import dev.pigeonhole.domain.model.StoreUnavailableException;
import dev.pigeonhole.testsupport.redis.RedisTarget;
import dev.pigeonhole.testsupport.redis.SecuredRedis;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * A Redis that admits over TLS only a client presenting a certificate its CA signed: with
 * {@code --redis-tls-cert} and {@code --redis-tls-key} a client signs in and calls; without them
 * it is refused. GLIDE cannot present one, and says so instead of connecting.
 */
@Timeout(60)
class TlsClientCertificateTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(2);
    private static final FunctionCall WRITE = new FunctionCall(
            InlineFunction.of("tls_write", "return redis.call('SET', KEYS[1], ARGV[1])"), List.of("t:{tls}"), List.of("v"));
    private static SecuredRedis redis;

    private static synchronized SecuredRedis redis() {
        if (redis == null) {
            redis = SecuredRedis.single(SecuredRedisContracts.ACL_PREFIX, SecuredRedis.Transport.TLS_CLIENT_CERTIFICATE);
        }
        return redis;
    }

    private static RedisSettings settings(boolean withCertificate) {
        var certificates = redis().certificates();
        RedisSettings.Tls tls = withCertificate
                ? new RedisSettings.Tls(true, certificates.authority(), certificates.clientCertificate(), certificates.clientKey())
                : new RedisSettings.Tls(true, certificates.authority(), null, null);
        RedisSettings.Endpoint endpoint = RedisSettings.Endpoint.single(redis().address())
                .withCredentials(new RedisSettings.Credentials(SecuredRedis.USER, redis().password()))
                .withTls(tls);
        return RedisSettings.of(endpoint).withTimeouts(TIMEOUT, TIMEOUT).withClientName(RedisTarget.newClientName());
    }

    @ParameterizedTest
    @EnumSource(value = RedisClientKind.class, names = "GLIDE", mode = EnumSource.Mode.EXCLUDE)
    void a_client_presenting_its_certificate_signs_in_and_calls(RedisClientKind client) {
        try (RedisDriver driver = Drivers.open(client, settings(true))) {
            Functions.install(driver);

            assertThat(driver.run(WRITE)).isNotNull();
        }
    }

    @ParameterizedTest
    @EnumSource(value = RedisClientKind.class, names = "GLIDE", mode = EnumSource.Mode.EXCLUDE)
    void a_client_without_a_certificate_is_refused(RedisClientKind client) {
        try (RedisDriver driver = Drivers.open(client, settings(false))) {
            Throwable failure = catchThrowable(() -> Functions.install(driver));

            assertThat(failure).isInstanceOf(StoreUnavailableException.class)
                    .hasMessageStartingWith("Redis at rediss://")
                    .hasMessageNotContaining(redis().password());
        }
    }

    @Test
    void glide_refuses_a_client_certificate_it_cannot_present() {
        assertThatThrownBy(() -> Drivers.open(RedisClientKind.GLIDE, settings(true)).close())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("the GLIDE client cannot present a Redis TLS client certificate (--redis-tls-cert): "
                        + "use another --redis-client");
    }

    @AfterAll
    static synchronized void stop() {
        if (redis != null) {
            redis.close();
            redis = null;
        }
    }
}
