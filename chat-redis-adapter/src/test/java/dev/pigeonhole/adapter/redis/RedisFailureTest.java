package dev.pigeonhole.adapter.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pigeonhole.adapter.redis.RedisFailure.NoAnswer;
import dev.pigeonhole.adapter.redis.RedisFailure.Trouble;
import java.io.IOException;
import java.net.ConnectException;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import org.junit.jupiter.api.Test;

/** Reading the JDK's part of a client's exception, which both drivers share. No sockets. */
class RedisFailureTest {

    @Test
    void the_chain_holds_every_cause_and_what_each_suppressed_once() {
        RuntimeException seedTwo = new RuntimeException("seed two", new IOException("deep"));
        RuntimeException outer = new RuntimeException("cluster", new IllegalStateException("seed one"));
        outer.addSuppressed(seedTwo);
        outer.addSuppressed(seedTwo);

        assertThat(RedisFailure.chain(outer)).extracting(Throwable::getMessage)
                .containsExactly("cluster", "seed two", "deep", "seed one");
    }

    @Test
    void the_jdk_tells_a_read_timeout_from_a_connect_timeout() {
        assertThat(RedisFailure.fromJdk(wrapped(new SocketTimeoutException("Read timed out"))))
                .contains(new NoAnswer(Trouble.TIMED_OUT, null));
        assertThat(RedisFailure.fromJdk(wrapped(new SocketTimeoutException("Connect timed out"))))
                .contains(new NoAnswer(Trouble.CONNECT_TIMED_OUT, null));
        // Netty reports a connect timeout as a ConnectException.
        assertThat(RedisFailure.fromJdk(wrapped(new ConnectException("connection timed out after 300 ms: /127.0.0.1:1"))))
                .contains(new NoAnswer(Trouble.CONNECT_TIMED_OUT, null));
    }

    @Test
    void a_refused_connection_needs_no_more_words_and_a_broken_one_says_how() {
        assertThat(RedisFailure.fromJdk(wrapped(new ConnectException("Connection refused: /127.0.0.1:1"))))
                .contains(new NoAnswer(Trouble.REFUSED, null));
        assertThat(RedisFailure.fromJdk(wrapped(new SocketException("Connection reset"))))
                .contains(new NoAnswer(Trouble.BROKEN, "Connection reset"));
        assertThat(RedisFailure.fromJdk(wrapped(new UnknownHostException("redis.invalid"))))
                .contains(new NoAnswer(Trouble.UNKNOWN_HOST, "redis.invalid"));
    }

    @Test
    void what_a_seed_node_suppressed_is_read_too() {
        RuntimeException cluster = new RuntimeException("could not initialize the slot cache");
        cluster.addSuppressed(wrapped(new ConnectException("Connection refused")));

        assertThat(RedisFailure.fromJdk(cluster)).contains(new NoAnswer(Trouble.REFUSED, null));
    }

    @Test
    void a_failure_without_a_jdk_reason_says_nothing() {
        assertThat(RedisFailure.fromJdk(new IllegalStateException("client state"))).isEmpty();
    }

    @Test
    void an_error_code_is_the_replys_first_word() {
        assertThat(new RedisFailure.ErrorReply("WRONGPASS invalid username-password pair").code()).isEqualTo("WRONGPASS");
        assertThat(new RedisFailure.ErrorReply("LOADING").code()).isEqualTo("LOADING");
    }

    private static RuntimeException wrapped(Exception jdk) {
        return new RuntimeException("the client's wrapper", jdk);
    }
}
