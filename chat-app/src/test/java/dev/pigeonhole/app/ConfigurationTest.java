package dev.pigeonhole.app;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Where each option's value comes from: a flag, else its environment variable, else the
 * configuration file, else its default; what {@code pigeonhole config} says about that; and the
 * one-line refusals of a file that is wrong. The environment is a map handed to {@link Main#run},
 * never this process's own.
 */
class ConfigurationTest {

    private static final String SECRET = "a-signing-secret-of-at-least-32-bytes-0123456789";

    @TempDir
    Path dir;

    @Test
    void a_value_in_the_file_wins_over_the_default() {
        Path file = file("# the port behind the proxy", "port = 8081");

        CommandRun outcome = CommandRun.of(Map.of(), "config", "--config", file.toString());

        assertThat(outcome.status()).as(outcome.err()).isZero();
        assertThat(outcome.line("port")).isEqualTo("port = 8081  (file " + file + ":2)");
        assertThat(outcome.line("host")).isEqualTo("host = 127.0.0.1  (default)");
    }

    @Test
    void the_environment_wins_over_the_file() {
        Path file = file("port = 8081", "rate-send = 5/1s");

        CommandRun outcome = CommandRun.of(Map.of("PIGEONHOLE_PORT", "8082"), "config", "--config=" + file);

        assertThat(outcome.line("port")).isEqualTo("port = 8082  (env PIGEONHOLE_PORT)");
        assertThat(outcome.line("rate-send")).isEqualTo("rate-send = 5/1s  (file " + file + ":2)");
    }

    @Test
    void a_flag_wins_over_the_environment() {
        Path file = file("port = 8081");

        CommandRun outcome = CommandRun.of(Map.of("PIGEONHOLE_PORT", "8082"), "config", "--config", file.toString(), "--port", "8083");

        assertThat(outcome.line("port")).isEqualTo("port = 8083  (flag)");
    }

    /** The same order through serve itself: it connects where the winning source says, and reports that address. */
    @Test
    void serve_connects_where_the_winning_source_says() {
        String fromFile = "redis://127.0.0.1:" + CommandRun.closedPort();
        String fromEnv = "redis://127.0.0.1:" + CommandRun.closedPort();
        String fromFlag = "redis://127.0.0.1:" + CommandRun.closedPort();
        Path file = file("store = redis", "redis-client = jedis", "redis-url = " + fromFile, "port = 0");

        assertThat(CommandRun.of(Map.of(), "serve", "--config", file.toString()).errLines().getFirst())
                .startsWith("pigeonhole: Redis did not answer at " + fromFile);
        assertThat(CommandRun.of(Map.of("REDIS_URL", fromEnv), "serve", "--config", file.toString()).errLines().getFirst())
                .startsWith("pigeonhole: Redis did not answer at " + fromEnv);
        assertThat(CommandRun.of(Map.of("REDIS_URL", fromEnv), "serve", "--config", file.toString(), "--redis-url", fromFlag)
                .errLines().getFirst())
                .startsWith("pigeonhole: Redis did not answer at " + fromFlag);
    }

    @Test
    void the_demo_reads_the_same_file() {
        String url = "redis://127.0.0.1:" + CommandRun.closedPort();
        Path file = file("store = redis", "redis-client = jedis", "redis-url = " + url, "port = 8081");

        CommandRun outcome = CommandRun.of(Map.of(), "demo", "--config", file.toString());

        assertThat(outcome.status()).as("a key of serve's alone is no error for demo: %s", outcome.err()).isEqualTo(3);
        assertThat(outcome.errLines().getFirst()).startsWith("pigeonhole: Redis did not answer at " + url);
    }

    @Test
    void the_file_pigeonhole_config_names_is_read_when_no_flag_names_one() {
        Path file = file("port = 8081");

        CommandRun outcome = CommandRun.of(Map.of("PIGEONHOLE_CONFIG", file.toString()), "config");

        assertThat(outcome.line("config")).isEqualTo("config = " + file + "  (env PIGEONHOLE_CONFIG)");
        assertThat(outcome.line("port")).isEqualTo("port = 8081  (file " + file + ":1)");
    }

    @Test
    void an_unknown_key_is_named_with_its_line_and_the_nearest_known_key() {
        Path file = file("host = 127.0.0.1", "prot = 8081");

        CommandRun outcome = CommandRun.of(Map.of(), "serve", "--config", file.toString());

        assertRefused(outcome, "pigeonhole: unknown key 'prot' in " + file + ":2; did you mean 'port'?");
    }

    @Test
    void an_unknown_key_far_from_every_known_one_points_at_the_help() {
        Path file = file("colour = blue");

        CommandRun outcome = CommandRun.of(Map.of(), "serve", "--config", file.toString());

        assertRefused(outcome, "pigeonhole: unknown key 'colour' in " + file + ":1; the keys are serve's options "
                + "without the dashes (pigeonhole serve --help)");
    }

    @Test
    void a_file_cannot_name_another() {
        Path file = file("config = /etc/other.conf");

        CommandRun outcome = CommandRun.of(Map.of(), "serve", "--config", file.toString());

        assertRefused(outcome, "pigeonhole: 'config' in " + file + ":1 names another configuration file; "
                + "a configuration file cannot");
    }

    @Test
    void a_missing_file_is_named() {
        Path missing = dir.resolve("nowhere.conf");

        CommandRun outcome = CommandRun.of(Map.of("PIGEONHOLE_CONFIG", missing.toString()), "serve");

        assertRefused(outcome, "pigeonhole: cannot read the configuration file " + missing + ": no such file");
    }

    @Test
    void a_value_from_the_file_that_does_not_convert_says_where_it_stands() {
        Path file = file("max-members = 1000", "port = eighty");

        CommandRun outcome = CommandRun.of(Map.of(), "serve", "--config", file.toString());

        assertRefused(outcome, "pigeonhole: Invalid value for option '--port': 'eighty' is not an int; 'port' in "
                + file + ":2 says so (see 'pigeonhole serve --help')");
    }

    @Test
    void a_value_from_the_environment_that_does_not_convert_names_the_variable() {
        CommandRun outcome = CommandRun.of(Map.of("PIGEONHOLE_RATE_SEND", "fast"), "serve");

        assertThat(outcome.status()).isEqualTo(2);
        assertThat(outcome.errLines()).singleElement().asString().contains("--rate-send")
                .contains("PIGEONHOLE_RATE_SEND in the environment says so");
    }

    @Test
    void a_secret_in_the_file_is_refused_with_where_it_belongs() {
        Path file = file("jwt-secret = " + SECRET);

        CommandRun outcome = CommandRun.of(Map.of(), "serve", "--config", file.toString());

        assertRefused(outcome, "pigeonhole: 'jwt-secret' in " + file + ":1 is a secret, and a configuration file is "
                + "no place for one: name a file holding it with 'jwt-secret-file'");
        assertThat(outcome.err()).doesNotContain(SECRET);
    }

    @Test
    void the_secret_is_read_from_the_file_jwt_secret_file_names() throws IOException {
        Path secret = Files.writeString(dir.resolve("jwt"), SECRET + "\n");
        Path tooShort = Files.writeString(dir.resolve("short"), "only-31-bytes-long-0123456789ab\n");
        String closed = "redis://127.0.0.1:" + CommandRun.closedPort();

        // A secret lets dev login off every interface, so the store is asked: the secret was read.
        CommandRun withSecret = CommandRun.of(Map.of(), "serve", "--host", "0.0.0.0", "--port", "0", "--store", "redis",
                "--redis-client", "jedis", "--redis-url", closed, "--config", file("jwt-secret-file = " + secret).toString());
        CommandRun withShortOne = CommandRun.of(Map.of(), "serve", "--port", "0", "--jwt-secret-file", tooShort.toString());
        CommandRun withBoth = CommandRun.of(Map.of("PIGEONHOLE_JWT_SECRET", SECRET), "serve", "--port", "0",
                "--jwt-secret-file", secret.toString());
        CommandRun withNone = CommandRun.of(Map.of(), "serve", "--port", "0", "--jwt-secret-file", dir.resolve("gone").toString());

        assertThat(withSecret.status()).as(withSecret.err()).isEqualTo(3);
        assertRefused(withShortOne, "pigeonhole: the JWT secret must be at least 32 bytes (256 bits) for HS256; "
                + "generate one with: openssl rand -base64 48");
        assertThat(withBoth.status()).isEqualTo(2);
        assertThat(withBoth.errLines()).singleElement().asString().contains("--jwt-secret-file").contains("keep only the file");
        assertRefused(withNone, "pigeonhole: cannot read the JWT secret file " + dir.resolve("gone") + ": no such file");
    }

    @Test
    void config_prints_every_option_of_serve_in_the_order_of_its_help_with_its_source_and_secrets_masked() {
        Path file = file("max-members = 50", "jwt-secret-file = /run/secrets/jwt");

        CommandRun outcome = CommandRun.of(Map.of("PIGEONHOLE_JWT_SECRET", SECRET), "config", "--config", file.toString(),
                "--store", "redis", "--dev-login");

        assertThat(outcome.status()).as(outcome.err()).isZero();
        assertThat(outcome.err()).isEmpty();
        assertThat(outcome.out().lines().map(line -> line.substring(0, line.indexOf(" = "))).toList())
                .as("one line an option, as serve --help lists them").isEqualTo(helpOrder());
        assertThat(outcome.out().lines()).allMatch(line -> line.matches("[a-z-]+ = .*  \\((flag|env [A-Z_]+|file .+:\\d+|default)\\)"));
        assertThat(outcome.line("store")).isEqualTo("store = redis  (flag)");
        assertThat(outcome.line("dev-login")).isEqualTo("dev-login = true  (flag)");
        assertThat(outcome.line("max-members")).isEqualTo("max-members = 50  (file " + file + ":1)");
        assertThat(outcome.line("jwt-secret-file")).isEqualTo("jwt-secret-file = /run/secrets/jwt  (file " + file + ":2)");
        assertThat(outcome.line("jwt-secret")).isEqualTo("jwt-secret = ****  (env PIGEONHOLE_JWT_SECRET)");
        assertThat(outcome.line("redis-cluster")).isEqualTo("redis-cluster =   (default)");
        assertThat(outcome.out()).doesNotContain(SECRET);

        CommandRun flagged = CommandRun.of(Map.of(), "config", "--jwt-secret", SECRET);
        CommandRun unset = CommandRun.of(Map.of(), "config");
        assertThat(flagged.line("jwt-secret")).isEqualTo("jwt-secret = ****  (flag)");
        assertThat(flagged.out()).doesNotContain(SECRET);
        assertThat(unset.line("jwt-secret")).isEqualTo("jwt-secret = (not set)  (default)");
    }

    @Test
    void every_environment_variable_read_before_the_file_existed_is_still_read() {
        Map<String, String> env = new LinkedHashMap<>();
        EARLIER_VARIABLES.forEach((key, variable) -> env.put(variable, validValue(key)));

        CommandRun outcome = CommandRun.of(env, "config");

        assertThat(outcome.status()).as(outcome.err()).isZero();
        EARLIER_VARIABLES.forEach((key, variable) ->
                assertThat(outcome.line(key)).endsWith("  (env " + variable + ")"));
    }

    /** Picocli expands ${...} in the values a provider gives; a value from the environment or a file is taken as written. */
    @Test
    void a_value_is_taken_as_written_without_expanding_variables() {
        String written = "a$b$${env:HOME}${sys:user.dir}:";
        Main.Demo demo = new Main.Demo();
        OptionSources sources = new OptionSources(Map.of("PIGEONHOLE_KEY_PREFIX", written)::get, Optional.empty());
        new CommandLine(demo).setCaseInsensitiveEnumValuesAllowed(true).setDefaultValueProvider(sources).parseArgs();

        assertThat(demo.store.prefix).isEqualTo(written);
    }

    @Test
    void the_help_names_each_option_s_variable_and_default() {
        CommandRun outcome = CommandRun.of(Map.of(), "serve", "--help");
        String help = outcome.out().replaceAll("\\s+", " ");

        assertThat(help).contains("--port=<port> port to listen on, 0 for any free one (env PIGEONHOLE_PORT; default: 8080)")
                .contains("a single Redis node (env REDIS_URL; default: redis:")
                .contains("(env PIGEONHOLE_JWT_SECRET_FILE)")
                .contains("(env PIGEONHOLE_CONFIG)");
        EARLIER_VARIABLES.values().forEach(variable -> assertThat(help).contains("(env " + variable));
    }

    /** Each option's variable as the options named it themselves before the rule derived them. */
    private static final Map<String, String> EARLIER_VARIABLES = earlierVariables();

    private static Map<String, String> earlierVariables() {
        Map<String, String> variables = new LinkedHashMap<>();
        for (String key : List.of("store", "postgres-url", "postgres-user", "postgres-password-file", "postgres-schema",
                "postgres-pool-size", "redis-client", "redis-cluster", "redis-cluster-patterns", "key-layout",
                "key-prefix", "redis-pool-size", "host", "port", "presence-window", "max-message-length", "max-members",
                "max-retained", "mailbox-capacity", "add-policy", "max-chats-per-user", "max-invitations",
                "max-request-bytes", "max-live-connections", "max-unsent-bytes", "header-timeout",
                "max-connections-per-address", "live-catch-ups", "rate-send", "rate-create", "rate-invite", "rate-deliver",
                "pending-max-messages", "pending-max-bytes", "jwt-secret", "dev-login", "token-lifetime")) {
            variables.put(key, "PIGEONHOLE_" + key.replace('-', '_').toUpperCase());
        }
        variables.put("redis-url", "REDIS_URL");
        return variables;
    }

    /** A value each option takes: its default where it has one. */
    private static String validValue(String key) {
        CommandLine.Model.OptionSpec option = new CommandLine(new ServeCommand()).getCommandSpec().findOption("--" + key);
        return switch (key) {
            case "jwt-secret" -> SECRET;
            case "redis-cluster" -> "127.0.0.1:7000";
            case "dev-login" -> "true";
            case "postgres-password-file" -> "/run/secrets/pg";
            case "key-prefix" -> "test:";
            default -> option.defaultValue();
        };
    }

    /** The long options of serve in the order its help lists them, leaving out help and version. */
    private static List<String> helpOrder() {
        Pattern option = Pattern.compile("^ {2}(?:-\\w, | {4})--([a-z-]+)");
        return CommandRun.of(Map.of(), "serve", "--help").out().lines()
                .map(option::matcher).filter(Matcher::find).map(found -> found.group(1))
                .filter(key -> !key.equals("help") && !key.equals("version"))
                .toList();
    }

    private static void assertRefused(CommandRun outcome, String line) {
        assertThat(outcome.status()).as("exit status; standard error:%n%s", outcome.err()).isEqualTo(2);
        assertThat(outcome.errLines()).containsExactly(line);
        assertThat(outcome.err()).doesNotContain("Exception").doesNotContain("\tat ");
        assertThat(outcome.out()).as("standard output").isEmpty();
    }

    private Path file(String... lines) {
        try {
            return Files.write(Files.createTempFile(dir, "pigeonhole-", ".conf"), List.of(lines));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
