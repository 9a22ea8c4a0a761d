package dev.pigeonhole.adapter.redis.glide;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.pigeonhole.adapter.redis.PubSubConnection;
import dev.pigeonhole.adapter.redis.PubSubListener;
import dev.pigeonhole.adapter.redis.RedisFailure.ErrorReply;
import dev.pigeonhole.adapter.redis.RedisFailure.NoAnswer;
import dev.pigeonhole.adapter.redis.RedisFailure.Trouble;
import dev.pigeonhole.adapter.redis.RedisTestSettings;
import dev.pigeonhole.domain.model.StoreUnavailableException;
import dev.pigeonhole.testsupport.redis.LocalRedisServer;
import dev.pigeonhole.testsupport.redis.RedisTarget;
import glide.api.models.exceptions.ClosingException;
import glide.api.models.exceptions.RequestException;
import glide.api.models.exceptions.TimeoutException;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.junit.jupiter.api.Test;

/**
 * What is GLIDE's own: the words its core puts around Redis's error replies (as GLIDE 2.3 wrote
 * them when asked here), read back into Redis's, and the shapes of its replies.
 */
class GlideDriverTest {

    @Test
    void an_error_code_glide_knows_by_name_is_read_back_as_redis_wrote_it() {
        assertThat(GlideFailures.read(new RequestException("An error was signalled by the server: - ReadOnly: You can't write against a read only replica.")))
                .isEqualTo(new ErrorReply("READONLY You can't write against a read only replica."));
        assertThat(GlideFailures.read(new RequestException("An error was signalled by the server: - ResponseError: Function not found")))
                .isEqualTo(new ErrorReply("ERR Function not found"));
        assertThat(GlideFailures.read(new RequestException("An error was signalled by the server: - BusyLoadingError: loading")))
                .isEqualTo(new ErrorReply("LOADING loading"));
    }

    @Test
    void an_error_code_glide_does_not_know_loses_only_its_colon() {
        assertThat(GlideFailures.read(new RequestException("NOREPLICAS: Not enough good replicas to write.")))
                .isEqualTo(new ErrorReply("NOREPLICAS Not enough good replicas to write."));
        assertThat(GlideFailures.read(new RequestException("chat_send: not a member")))
                .as("a function's own error with no code stays as GLIDE gave it")
                .isEqualTo(new ErrorReply("chat_send: not a member"));
    }

    @Test
    void a_refused_connection_attempt_carries_what_redis_answered() {
        assertThat(GlideFailures.read(new RequestException("Standalone connect failed - IoError: Received error for address "
                + "`127.0.0.1:1`: WRONGPASS: invalid username-password pair or user is disabled.")))
                .isEqualTo(new ErrorReply("WRONGPASS invalid username-password pair or user is disabled."));
        assertThat(GlideFailures.read(new RequestException("Failed to create initial connections - IoError: Node: \"127.0.0.1:2\" "
                + "received errors: `NOAUTH: HELLO must be called with the client already authenticated`")))
                .isEqualTo(new ErrorReply("NOAUTH HELLO must be called with the client already authenticated"));
        assertThat(GlideFailures.read(new RequestException("Standalone connect failed - IoError: Received error: No primary node found- ClientError")))
                .isInstanceOf(NoAnswer.class)
                .extracting(failure -> ((NoAnswer) failure).trouble()).isEqualTo(Trouble.UNREACHABLE);
    }

    @Test
    void no_answer_is_told_apart_from_an_error_reply() {
        assertThat(GlideFailures.read(new TimeoutException("Request timed out")))
                .isEqualTo(new NoAnswer(Trouble.TIMED_OUT, null));
        assertThat(GlideFailures.read(new ClosingException("Received connection error `Failed to receive a response due to a "
                + "fatal error - FatalReceiveError: channel closed`. Will attempt to reconnect")))
                .extracting(failure -> ((NoAnswer) failure).trouble()).isEqualTo(Trouble.BROKEN);
        assertThat(GlideFailures.read(new ClosingException("Client closed: Unable to submit command.")))
                .extracting(failure -> ((NoAnswer) failure).trouble()).isEqualTo(Trouble.CLOSED);
    }

    @Test
    void replies_become_the_contract_s_plain_values() {
        Object reply = new Object[] {7L, "text", null, new Object[] {1L, new Object[] {}}, Boolean.TRUE, Boolean.FALSE};
        assertThat(GlideReplies.normalize("test", reply))
                .isEqualTo(Arrays.asList(7L, "text", null, List.of(1L, List.of()), 1L, null));
        assertThat(GlideReplies.normalize("test", Map.of("k", 2L))).isEqualTo(List.of("k", 2L));
    }

    /**
     * GLIDE keeps asking for a subscription whose confirmation it gave up waiting for; the driver
     * takes it back, so the caller, told it failed, gets no messages on it later.
     */
    @Test
    void a_subscription_that_failed_is_not_made_behind_the_caller_s_back() {
        try (LocalRedisServer server = LocalRedisServer.start();
             GlideDriver driver = new GlideDriver(RedisTestSettings.settings(server.target(), RedisTarget.newClientName())
                     .withTimeouts(Duration.ofMillis(300), Duration.ofMillis(300)))) {
            Queue<String> heard = new ConcurrentLinkedQueue<>();
            PubSubConnection pubsub = driver.openPubSub(new PubSubListener() {
                @Override
                public void message(String channel, String payload) {
                    heard.add(channel + "=" + payload);
                }

                @Override
                public void patternMessage(String pattern, String channel, String payload) {
                    heard.add(pattern + ":" + channel + "=" + payload);
                }

                @Override
                public void resubscribed() {
                    heard.add("resubscribed");
                }
            });
            // Redis holds every client's commands for a while: the SUBSCRIBE is not confirmed in time.
            server.target().admin("CLIENT", "PAUSE", "1500", "ALL");
            assertThatThrownBy(() -> pubsub.subscribe("late", false)).isInstanceOf(StoreUnavailableException.class);

            await().atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(50))
                    .until(() -> "[late, 0]".equals(server.target().admin("PUBSUB", "NUMSUB", "late")));
            pubsub.subscribe("witness", false);
            driver.publish("late", "1", false);
            driver.publish("witness", "2", false);
            await().atMost(Duration.ofSeconds(15)).until(() -> heard.contains("witness=2"));
            assertThat(heard).as("one connection delivers in order: nothing on the failed channel came first")
                    .containsExactly("witness=2");
            pubsub.close();
        }
    }
}
