package dev.pigeonhole.app;

import dev.pigeonhole.adapter.postgres.PostgresSettings;
import dev.pigeonhole.adapter.redis.RedisClientKind;
import dev.pigeonhole.adapter.redis.RedisSettings;
import dev.pigeonhole.domain.model.InvalidInputException;
import dev.pigeonhole.domain.model.StoreUnavailableException;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.InstantSource;
import java.util.Optional;
import java.util.concurrent.Callable;

/** The command line. Its own output goes to standard out; that is what a command line is for. */
@Command(name = "pigeonhole", mixinStandardHelpOptions = true, versionProvider = Version.class,
        description = "Pull messaging, group chat, presence and live push on Redis.",
        subcommands = {ServeCommand.class, Main.Demo.class, CommandLine.HelpCommand.class})
public final class Main implements Runnable {

    @Spec
    CommandLine.Model.CommandSpec spec;

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    static int run(String[] args, PrintStream out, PrintStream err) {
        PrintWriter outWriter = new PrintWriter(out, true, StandardCharsets.UTF_8);
        PrintWriter errWriter = new PrintWriter(err, true, StandardCharsets.UTF_8);
        CommandLine commandLine = new CommandLine(new Main())
                .setOut(outWriter)
                .setErr(errWriter)
                .setCaseInsensitiveEnumValuesAllowed(true)
                .setParameterExceptionHandler((e, parsed) -> {
                    CommandLine line = e.getCommandLine();
                    if (e instanceof CommandLine.UnmatchedArgumentException) {
                        // An unknown command or option: the list of what there is helps.
                        line.getErr().println("pigeonhole: " + e.getMessage());
                        line.usage(line.getErr());
                    } else {
                        // A known option with a value that does not fit: one line, not buried under the usage.
                        line.getErr().println("pigeonhole: " + e.getMessage() + " (see '"
                                + line.getCommandSpec().qualifiedName() + " --help')");
                    }
                    return CommandLine.ExitCode.USAGE;
                })
                // A store that cannot be reached or a value that does not fit is a one-line answer,
                // not a stack trace.
                .setExecutionExceptionHandler((e, line, parsed) -> {
                    line.getErr().println("pigeonhole: " + (e.getMessage() != null ? e.getMessage() : e.toString()));
                    if (e instanceof StoreUnavailableException) {
                        return 3;
                    }
                    return e instanceof IllegalArgumentException || e instanceof InvalidInputException
                            ? CommandLine.ExitCode.USAGE : 1;
                });
        int status = commandLine.execute(args);
        outWriter.flush();
        errWriter.flush();
        return status;
    }

    /** No command: say what there is. */
    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    /** Where the data lives; every option also reads an environment variable, for containers. */
    static final class StoreOptions {

        @Option(names = "--store", defaultValue = "${env:PIGEONHOLE_STORE:-memory}",
                description = "memory, redis or postgres (env PIGEONHOLE_STORE; default: ${DEFAULT-VALUE})")
        StoreKind store;

        @Option(names = "--postgres-url", defaultValue = "${env:PIGEONHOLE_POSTGRES_URL:-jdbc:postgresql://127.0.0.1:5432/pigeonhole}",
                description = "the PostgreSQL database, as a JDBC URL (env PIGEONHOLE_POSTGRES_URL; "
                        + "default: ${DEFAULT-VALUE})")
        String postgresUrl;

        @Option(names = "--postgres-user", defaultValue = "${env:PIGEONHOLE_POSTGRES_USER:-pigeonhole}",
                description = "the PostgreSQL user (env PIGEONHOLE_POSTGRES_USER; default: ${DEFAULT-VALUE})")
        String postgresUser;

        @Option(names = "--postgres-password-file", defaultValue = "${env:PIGEONHOLE_POSTGRES_PASSWORD_FILE}",
                description = "a file holding the PostgreSQL password; or set PIGEONHOLE_POSTGRES_PASSWORD. "
                        + "Never given on the command line, where others could read it, and never printed")
        Path postgresPasswordFile;

        @Option(names = "--postgres-schema", defaultValue = "${env:PIGEONHOLE_POSTGRES_SCHEMA:-pigeonhole}",
                description = "the schema Pigeonhole keeps its tables in, migrated at start (env "
                        + "PIGEONHOLE_POSTGRES_SCHEMA; default: ${DEFAULT-VALUE})")
        String postgresSchema;

        @Option(names = "--postgres-pool-size", defaultValue = "${env:PIGEONHOLE_POSTGRES_POOL_SIZE:-32}",
                description = "connections in the PostgreSQL pool (env PIGEONHOLE_POSTGRES_POOL_SIZE; "
                        + "default: ${DEFAULT-VALUE})")
        int postgresPoolSize;

        @Option(names = "--redis-client", defaultValue = "${env:PIGEONHOLE_REDIS_CLIENT:-lettuce}",
                description = "jedis, lettuce, redisson or glide (env PIGEONHOLE_REDIS_CLIENT; default: ${DEFAULT-VALUE})")
        RedisClientKind client;

        @Option(names = "--redis-url", defaultValue = "${env:REDIS_URL:-redis://127.0.0.1:6379}",
                description = "a single Redis node (env REDIS_URL; default: ${DEFAULT-VALUE})")
        String url;

        @Option(names = "--redis-cluster", defaultValue = "${env:PIGEONHOLE_REDIS_CLUSTER}",
                description = "host:port,... of a Redis Cluster, instead of --redis-url (env PIGEONHOLE_REDIS_CLUSTER)")
        String cluster;

        @Option(names = "--redis-cluster-patterns", arity = "0..1", fallbackValue = "true",
                defaultValue = "${env:PIGEONHOLE_REDIS_CLUSTER_PATTERNS:-false}",
                description = "on a Redis Cluster, also send every event with classic PUBLISH so that pattern "
                        + "subscriptions hear it; off, an event is one SPUBLISH to its shard and a pattern "
                        + "subscription is refused; the server itself subscribes to none "
                        + "(env PIGEONHOLE_REDIS_CLUSTER_PATTERNS; default: ${DEFAULT-VALUE})")
        boolean clusterPatterns;

        @Option(names = "--key-layout", defaultValue = "${env:PIGEONHOLE_KEY_LAYOUT:-tagged}",
                description = "tagged (cluster-safe) or book (Redis in Action's keys, single node) "
                        + "(env PIGEONHOLE_KEY_LAYOUT; default: ${DEFAULT-VALUE})")
        RedisConfig.Layout layout;

        @Option(names = "--key-prefix", defaultValue = "${env:PIGEONHOLE_KEY_PREFIX:-}",
                description = "put in front of every Redis key and channel (env PIGEONHOLE_KEY_PREFIX)")
        String prefix;

        @Option(names = "--redis-pool-size", defaultValue = "${env:PIGEONHOLE_REDIS_POOL_SIZE:-128}",
                description = "most connections Jedis opens to each Redis node; Lettuce shares one "
                        + "(env PIGEONHOLE_REDIS_POOL_SIZE; default: ${DEFAULT-VALUE})")
        int poolSize;

        AppConfig config() {
            AppConfig defaults = AppConfig.defaults();
            if (store == StoreKind.MEMORY) {
                return defaults;
            }
            if (store == StoreKind.POSTGRES) {
                return defaults.withPostgres(PostgresSettings.of(postgresUrl, postgresUser, postgresPassword())
                        .withSchema(postgresSchema).withPoolSize(postgresPoolSize));
            }
            RedisSettings.Endpoint endpoint = cluster == null || cluster.isBlank()
                    ? RedisSettings.Endpoint.single(url)
                    : RedisSettings.Endpoint.cluster(cluster);
            return defaults.withRedis(RedisConfig.defaults()
                    .withClient(client)
                    .withEndpoint(endpoint)
                    .withLayout(layout)
                    .withKeyPrefix(prefix)
                    .withPatternsOnCluster(clusterPatterns)
                    .withPoolSize(poolSize));
        }

        /** From the file if one is named, else the environment; empty for a database that asks none. */
        private String postgresPassword() {
            if (postgresPasswordFile != null) {
                try {
                    return Files.readString(postgresPasswordFile).strip();
                } catch (IOException e) {
                    throw new IllegalArgumentException("cannot read the PostgreSQL password file "
                            + postgresPasswordFile + ": " + e.getMessage());
                }
            }
            return Optional.ofNullable(System.getenv("PIGEONHOLE_POSTGRES_PASSWORD")).orElse("");
        }

        String describe() {
            return switch (store) {
                case MEMORY -> "memory";
                case REDIS -> "redis (" + client.name().toLowerCase() + ", " + layout.name().toLowerCase() + " keys"
                        + (prefix.isEmpty() ? "" : ", prefix " + prefix) + ")";
                case POSTGRES -> "postgres (schema " + postgresSchema + ")";
            };
        }
    }

    @Command(name = "demo", mixinStandardHelpOptions = true,
            description = "Play Redis in Action's group chat scenario (figure 6.12) through the use cases.")
    static final class Demo implements Callable<Integer> {

        @Spec
        CommandLine.Model.CommandSpec spec;

        @Mixin
        StoreOptions store;

        @Override
        public Integer call() throws Exception {
            PrintWriter out = spec.commandLine().getOut();
            try (Pigeonhole app = Pigeonhole.start(store.config(), InstantSource.system())) {
                out.println("Pigeonhole demo, store: " + store.describe());
                new BookScenario(app, out).run();
            }
            return 0;
        }
    }
}
