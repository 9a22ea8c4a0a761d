package dev.pigeonhole.app;

import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code --redis-durability} on the command line: shown by {@code config} like every option, read
 * from the environment, and refused before anything starts (exit status 2, one line) when written
 * wrong, when its wait would outlast the Redis command timeout, or when the store is not Redis.
 */
class DurabilityCommandTest {

    @Test
    void config_shows_the_durability_and_where_it_came_from() {
        CommandRun unset = CommandRun.of(Map.of(), "config", "--store", "redis");
        CommandRun fromEnv = CommandRun.of(Map.of("PIGEONHOLE_REDIS_DURABILITY", "replicas=2,timeout=500"), "config",
                "--store", "redis");

        assertThat(unset.line("redis-durability")).isEqualTo("redis-durability = none  (default)");
        assertThat(fromEnv.status()).as(fromEnv.err()).isZero();
        assertThat(fromEnv.line("redis-durability"))
                .isEqualTo("redis-durability = replicas=2,timeout=500  (env PIGEONHOLE_REDIS_DURABILITY)");
    }

    @Test
    void a_durability_written_wrong_is_one_line_naming_the_option_and_what_it_takes() {
        CommandRun outcome = serveOnRedis("replicas=0");

        assertRefused(outcome);
        assertThat(outcome.errLines().getFirst()).startsWith("pigeonhole: ").contains("--redis-durability")
                .contains("replicas is '0'").contains("replicas=N[,timeout=MS]");
    }

    @Test
    void a_durability_from_the_environment_written_wrong_names_the_variable() {
        CommandRun outcome = CommandRun.of(Map.of("PIGEONHOLE_REDIS_DURABILITY", "replica=1"), "serve", "--port", "0",
                "--store", "redis", "--redis-url", "redis://127.0.0.1:" + CommandRun.closedPort());

        assertRefused(outcome);
        assertThat(outcome.errLines().getFirst()).contains("'replica' is not replicas or timeout")
                .contains("PIGEONHOLE_REDIS_DURABILITY in the environment says so");
    }

    @Test
    void a_wait_as_long_as_the_redis_command_timeout_is_refused_with_both() {
        long commandTimeout = RedisConfig.defaults().commandTimeout().toMillis();

        CommandRun outcome = serveOnRedis("replicas=1,timeout=" + commandTimeout);

        assertRefused(outcome);
        assertThat(outcome.errLines()).containsExactly("pigeonhole: --redis-durability waits up to " + commandTimeout
                + " ms for replicas, which must be below the Redis command timeout of " + commandTimeout
                + " ms, after which the clients give up on the call");
    }

    @Test
    void the_help_gives_the_command_timeout_in_force() {
        String help = CommandRun.of(Map.of(), "serve", "--help").out().replaceAll("\\s+", " ");

        assertThat(help).contains("below the " + RedisConfig.defaults().commandTimeout().toMillis()
                + " ms Redis command timeout").contains("(env PIGEONHOLE_REDIS_DURABILITY; default: none)");
    }

    @Test
    void durability_with_a_store_other_than_redis_is_refused_rather_than_ignored() {
        CommandRun memory = CommandRun.of(Map.of(), "serve", "--port", "0", "--redis-durability", "replicas=1");
        CommandRun postgres = CommandRun.of(Map.of(), "demo", "--store", "postgres",
                "--postgres-url", "jdbc:postgresql://127.0.0.1:" + CommandRun.closedPort() + "/pigeonhole",
                "--redis-durability", "replicas=2,timeout=300");

        assertRefused(memory);
        assertThat(memory.errLines()).containsExactly("pigeonhole: --redis-durability replicas=1,timeout=1000 waits for "
                + "Redis replicas, and the store is memory: leave it at none, or use --store redis");
        assertRefused(postgres);
        assertThat(postgres.errLines().getFirst()).contains("--redis-durability replicas=2,timeout=300")
                .contains("the store is postgres");
    }

    /** Serve on a Redis nobody runs: a refusal must come before any connection is tried. */
    private static CommandRun serveOnRedis(String durability) {
        return CommandRun.of(Map.of(), "serve", "--port", "0", "--store", "redis",
                "--redis-url", "redis://127.0.0.1:" + CommandRun.closedPort(), "--redis-durability", durability);
    }

    private static void assertRefused(CommandRun outcome) {
        assertThat(outcome.status()).as("exit status; standard error:%n%s", outcome.err()).isEqualTo(2);
        assertThat(outcome.errLines()).as("one line").hasSize(1);
        assertThat(outcome.err()).doesNotContain("Exception").doesNotContain("\tat ");
        assertThat(outcome.out()).as("standard output").isEmpty();
    }
}
