package dev.pigeonhole.adapter.redis;

import dev.pigeonhole.domain.model.StoreUnavailableException;
import dev.pigeonhole.testsupport.redis.RedisTarget;
import dev.pigeonhole.testsupport.redis.SecuredRedis;
import java.time.Duration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * Every client on a single node that speaks TLS only and admits only signed-in users: the
 * contracts pass over TLS, trusting the CA that signed the server's certificate (issued for
 * 127.0.0.1, the address connected to, which every client verifies), and a client that trusts
 * another CA is refused before it says a word.
 */
class SecuredTlsSingleNodeTest extends SecuredRedisContracts {

    private static final Duration TIMEOUT = Duration.ofSeconds(2);
    @Override
    protected SecuredRedis start() {
        return SecuredRedis.single(ACL_PREFIX, SecuredRedis.Transport.TLS);
    }

    @Override
    protected RedisSettings.Tls tls() {
        return new RedisSettings.Tls(true, secured().certificates().authority(), null, null);
    }

    @ParameterizedTest
    @EnumSource(RedisClientKind.class)
    void a_server_certificate_another_ca_signed_is_unavailable_called_a_tls_failure(RedisClientKind client) {
        RedisSettings trusting = settings(RedisTarget.newClientName());
        RedisSettings untrusting = new RedisSettings(trusting.endpoint().withTls(
                new RedisSettings.Tls(true, secured().certificates().unrelatedAuthority(), null, null)),
                TIMEOUT, TIMEOUT, trusting.clientName(), trusting.poolSize());

        try (RedisDriver driver = Drivers.open(client, untrusting)) {
            Throwable failure = catchThrowable(() -> Functions.install(driver));

            assertThat(failure).isInstanceOf(StoreUnavailableException.class)
                    .hasMessageStartingWith("Redis at rediss://")
                    .hasMessageNotContaining(secured().password());
            if (client != RedisClientKind.GLIDE) {
                // GLIDE's core keeps the handshake's failure to its log: its request only times out.
                assertThat(failure).hasMessageContaining(": misconfigured: TLS failed (");
            }
        }
    }
}
