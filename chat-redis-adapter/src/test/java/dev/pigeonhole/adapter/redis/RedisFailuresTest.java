package dev.pigeonhole.adapter.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pigeonhole.adapter.redis.RedisFailure.ErrorReply;
import dev.pigeonhole.adapter.redis.RedisFailure.NoAnswer;
import dev.pigeonhole.adapter.redis.RedisFailure.Trouble;
import dev.pigeonhole.domain.model.StoreUnavailableException;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The shared rules that make one Redis answer one domain error, whichever client heard it. No sockets. */
class RedisFailuresTest {

    private static final String SECRET = "s3cret-pa55";
    private static final RedisSettings SETTINGS = RedisSettings.of(
                    RedisSettings.Endpoint.single("redis://app:" + SECRET + "@10.0.0.7:6380/2"))
            .withTimeouts(Duration.ofMillis(250), Duration.ofMillis(400));
    private static final String WHERE = "Redis at redis://10.0.0.7:6380/2 could not serve ";

    private final RedisFailures rules = new RedisFailures(SETTINGS);
    private final Throwable cause = new RuntimeException("the client's own exception");

    @ParameterizedTest
    @CsvSource(delimiterString = " | ", textBlock = """
            NOAUTH HELLO must be called with the client already authenticated | misconfigured: Redis requires a password and none is configured
            WRONGPASS invalid username-password pair or user is disabled.   | misconfigured: Redis rejects the configured user name or password
            NOPERM this user has no permissions to run the 'function|load' command | misconfigured: the Redis user 'app' may not run FUNCTION LOAD; see the README's ACL line
            NOPERM this user has no permissions to access one of the keys used as arguments | misconfigured: the Redis user 'app' may not use a key or channel the adapter needs (the ACL's ~ and & patterns must cover the key prefix); see the README's ACL line
            ERR The user executing the script can't run this command or subcommand script: chat_send_v1, on @user_function:2. | misconfigured: the Redis user 'app' may not run a command the function runs; see the README's ACL line
            """)
    void wrong_or_missing_credentials_and_permissions_are_unavailable_and_called_a_misconfiguration(String reply,
            String meaning) {
        RuntimeException ofCall = rules.ofCall("function chat_send", new ErrorReply(reply), cause);
        StoreUnavailableException ofPublish = rules.unavailable("PUBLISH to chat:{42}", new ErrorReply(reply), cause);

        assertThat(ofCall).isInstanceOf(StoreUnavailableException.class)
                .hasMessage(WHERE + "function chat_send: " + meaning + " (" + reply + ")")
                .hasCause(cause);
        assertThat(ofPublish).hasMessage(WHERE + "PUBLISH to chat:{42}: " + meaning + " (" + reply + ")");
    }

    @Test
    void a_read_only_replica_is_unavailable_even_when_a_script_met_it() {
        String reply = "READONLY You can't write against a read only replica. script: 9f0c, on @user_script:1.";

        assertThat(rules.ofCall("function chat_send", new ErrorReply(reply), cause))
                .isInstanceOf(StoreUnavailableException.class)
                .hasMessage(WHERE + "function chat_send: the node is a read-only replica: the configured address names a "
                        + "replica, or a failover is under way (" + reply + ")");
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "LOADING Redis is loading the dataset in memory",
            "MISCONF Redis is configured to save RDB snapshots, but it's currently unable to persist to disk.",
            "BUSY Redis is busy running a script. You can only call SCRIPT KILL or SHUTDOWN NOSAVE.",
            "MASTERDOWN Link with MASTER is down and replica-serve-stale-data is set to 'no'.",
            "CLUSTERDOWN The cluster is down",
            "TRYAGAIN Multiple keys request during rehashing of slot",
            "NOREPLICAS Not enough good replicas to write.",
            "OOM command not allowed when used memory > 'maxmemory'.",
            "MOVED 3999 127.0.0.1:6381",
            "ASK 3999 127.0.0.1:6381"})
    void a_server_that_cannot_serve_right_now_is_unavailable_not_a_script_bug(String reply) {
        RuntimeException failure = rules.ofCall("function chat_read", new ErrorReply(reply), cause);

        assertThat(failure).isInstanceOf(StoreUnavailableException.class)
                .hasMessageStartingWith(WHERE + "function chat_read: ")
                .hasMessageEndingWith(" (" + reply + ")")
                .hasMessageNotContaining("answered with an error");
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "ERR Error running script, user_script:3: Script attempted to access nonexistent global variable 'x'",
            "WRONGTYPE Operation against a key holding the wrong kind of value",
            "ERR unknown command 'NO_SUCH_COMMAND'",
            "not a member",
            "NOAUTHORITY is not a Redis code: only the whole first word counts"})
    void any_other_error_reply_to_a_script_is_a_bug_in_the_script(String reply) {
        RuntimeException failure = rules.ofCall("function chat_send", new ErrorReply(reply), cause);

        assertThat(failure).isExactlyInstanceOf(IllegalStateException.class)
                .hasMessage("Redis function chat_send failed: " + reply)
                .hasCause(cause);
    }

    @Test
    void any_other_error_reply_outside_a_script_is_unavailable_since_no_script_caused_it() {
        ErrorReply reply = new ErrorReply("ERR unknown command 'SPUBLISH', with args beginning with: ");

        assertThat(rules.unavailable("SPUBLISH to chat:{42}", reply, cause))
                .hasMessage(WHERE + "SPUBLISH to chat:{42}: it answered with an error (" + reply.text().strip() + ")");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', textBlock = """
            TIMED_OUT          |                  | no answer within 400 ms
            CONNECT_TIMED_OUT  |                  | no connection within 250 ms
            REFUSED            |                  | connection refused
            BROKEN             | Connection reset | connection broken (Connection reset)
            NO_FREE_CONNECTION |                  | no pooled connection became free within 400 ms
            CLOSED             |                  | the driver is closed
            """)
    void no_answer_is_unavailable_in_words_an_operator_can_act_on(Trouble trouble, String detail, String reason) {
        RuntimeException ofCall = rules.ofCall("function chat_send", new NoAnswer(trouble, detail), cause);

        assertThat(ofCall).isInstanceOf(StoreUnavailableException.class)
                .hasMessage(WHERE + "function chat_send: " + reason);
    }

    @Test
    void no_message_names_a_password_even_when_a_client_put_one_in_its_text() {
        NoAnswer leaky = new NoAnswer(Trouble.UNREACHABLE,
                "Cannot retrieve partitions from [redis://app:" + SECRET + "@10.0.0.7:6380?timeout=2s]\nDetails: more");

        StoreUnavailableException failure = rules.unavailable("function chat_send", leaky, cause);

        assertThat(failure).hasMessage(WHERE + "function chat_send: not reachable "
                + "(Cannot retrieve partitions from [redis://10.0.0.7:6380?timeout=2s])");
        assertThat(failure.getMessage()).doesNotContain(SECRET).doesNotContain("app:");
    }

    @Test
    void a_long_reply_is_cut_to_one_bounded_line() {
        String reply = "LOADING " + "x".repeat(500) + "\nsecond line";

        String message = rules.unavailable("PING", new ErrorReply(reply), cause).getMessage();

        assertThat(message).doesNotContain("second line").endsWith("...)").hasSizeLessThan(400);
    }

    @Test
    void a_cluster_is_named_by_its_seeds() {
        RedisFailures cluster = new RedisFailures(RedisSettings.of(RedisSettings.Endpoint.cluster("10.0.0.1:7000,10.0.0.2:7000")));

        assertThat(cluster.unavailable("function chat_send", new NoAnswer(Trouble.REFUSED, null), cause))
                .hasMessage("Redis at cluster 10.0.0.1:7000,10.0.0.2:7000 could not serve function chat_send: connection refused");
    }
}
