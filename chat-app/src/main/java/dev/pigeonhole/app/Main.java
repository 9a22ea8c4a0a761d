package dev.pigeonhole.app;

import dev.pigeonhole.adapter.postgres.PostgresSettings;
import dev.pigeonhole.adapter.postgres.PostgresSsl;
import dev.pigeonhole.adapter.redis.Durability;
import dev.pigeonhole.adapter.redis.RedisClientKind;
import dev.pigeonhole.adapter.redis.RedisSettings;
import dev.pigeonhole.adapter.redis.RedisTls;
import dev.pigeonhole.domain.model.InvalidInputException;
import dev.pigeonhole.domain.model.StoreUnavailableException;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.InstantSource;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.function.Function;

/** The command line. Its own output goes to standard out; that is what a command line is for. */
@Command(name = "pigeonhole", mixinStandardHelpOptions = true, versionProvider = Version.class,
        description = "Pull messaging, group chat, presence and live push on Redis.",
        subcommands = {ServeCommand.class, Main.Demo.class, ConfigCommand.class, CommandLine.HelpCommand.class})
public final class Main implements Runnable {

    @Spec
    CommandLine.Model.CommandSpec spec;

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    static int run(String[] args, PrintStream out, PrintStream err) {
        return run(args, out, err, System::getenv);
    }

    /** As {@link #main}, reading environment variables through {@code env}. */
    static int run(String[] args, PrintStream out, PrintStream err, Function<String, String> env) {
        PrintWriter outWriter = new PrintWriter(out, true, StandardCharsets.UTF_8);
        PrintWriter errWriter = new PrintWriter(err, true, StandardCharsets.UTF_8);
        CommandLine commandLine = new CommandLine(new Main());
        OptionSources sources;
        try {
            sources = sources(args, env, commandLine.getSubcommands().get("serve").getCommandSpec());
        } catch (IllegalArgumentException e) {
            errWriter.println("pigeonhole: " + e.getMessage());
            return CommandLine.ExitCode.USAGE;
        }
        OptionHelp.install(commandLine);
        commandLine
                .setOut(outWriter)
                .setErr(errWriter)
                .setCaseInsensitiveEnumValuesAllowed(true)
                .setDefaultValueProvider(sources)
                .setParameterExceptionHandler((e, parsed) -> {
                    CommandLine line = e.getCommandLine();
                    if (e instanceof CommandLine.UnmatchedArgumentException) {
                        // An unknown command or option: the list of what there is helps.
                        line.getErr().println("pigeonhole: " + e.getMessage());
                        line.usage(line.getErr());
                    } else {
                        // A known option with a value that does not fit: one line, not buried under the usage.
                        line.getErr().println("pigeonhole: " + e.getMessage() + readFrom(e, sources) + " (see '"
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

    /**
     * The environment, and the configuration file the arguments or the environment name, read and
     * checked before anything is parsed: picocli takes its defaults from them while it parses.
     */
    private static OptionSources sources(String[] args, Function<String, String> env, CommandLine.Model.CommandSpec serve) {
        Optional<ConfigFile> file = ConfigFile.named(args, env).map(ConfigFile::read);
        // One file serves every command, so its keys are those of serve, which has the most options.
        file.ifPresent(config -> config.check(OptionSources.settable(serve).stream().map(OptionSources::key).toList()));
        return new OptionSources(env, file);
    }

    /**
     * Where a value that does not fit came from, when not from the command line: picocli applies
     * the environment's and the file's values only to options the command line left out.
     */
    private static String readFrom(CommandLine.ParameterException e, OptionSources sources) {
        if (!(e.getArgSpec() instanceof OptionSpec option) || !OptionSources.isSettable(option)) {
            return "";
        }
        CommandLine.ParseResult parsed = e.getCommandLine().getParseResult();
        if (parsed != null && parsed.hasMatchedOption(option)) {
            return "";
        }
        return sources.source(option)
                .filter(source -> source.value().equals(e.getValue()))
                .map(source -> "; " + source.setting() + " says so")
                .orElse("");
    }

    /** No command: say what there is. */
    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    /** Where the data lives; like every option, each is also read from the environment and the configuration file. */
    static final class StoreOptions {

        /** The command these options are part of, whose default provider knows the environment. */
        @Spec(Spec.Target.MIXEE)
        CommandLine.Model.CommandSpec mixee;

        @Option(names = "--store", defaultValue = "memory",
                description = "memory, redis or postgres")
        StoreKind store;

        @Option(names = "--postgres-url", defaultValue = "jdbc:postgresql://127.0.0.1:5432/pigeonhole",
                description = "the PostgreSQL database, as a JDBC URL")
        String postgresUrl;

        @Option(names = "--postgres-user", defaultValue = "pigeonhole",
                description = "the PostgreSQL user")
        String postgresUser;

        @Option(names = "--postgres-password-file",
                description = "a file holding the PostgreSQL password; or set PIGEONHOLE_POSTGRES_PASSWORD. "
                        + "Never given on the command line, where others could read it, and never printed")
        Path postgresPasswordFile;

        @Option(names = "--postgres-schema", defaultValue = "pigeonhole",
                description = "the schema Pigeonhole keeps its tables in, migrated at start")
        String postgresSchema;

        @Option(names = "--postgres-pool-size", defaultValue = "32",
                description = "connections in the PostgreSQL pool")
        int postgresPoolSize;

        @Option(names = "--postgres-sslmode", converter = SslModeOption.class,
                description = "disable, allow, prefer, require, verify-ca or verify-full, PgJDBC's sslmode; unset, "
                        + "the URL's, else PgJDBC's prefer: encrypted if the server offers SSL, no certificate checked")
        PostgresSsl.Mode postgresSslMode;

        @Option(names = "--postgres-ssl-root-cert",
                description = "the certificate of the CA that signed the PostgreSQL server's (PgJDBC's sslrootcert), "
                        + "read with sslmode verify-ca or verify-full; unset, ~/.postgresql/root.crt")
        Path postgresSslRootCert;

        @Option(names = "--redis-client", defaultValue = "lettuce",
                description = "jedis, lettuce, redisson or glide")
        RedisClientKind client;

        @Option(names = "--redis-url", defaultValue = "redis://127.0.0.1:6379",
                description = "a single Redis node")
        String url;

        @Option(names = "--redis-cluster",
                description = "host:port,... of a Redis Cluster, instead of --redis-url")
        String cluster;

        @Option(names = "--redis-cluster-patterns", arity = "0..1", fallbackValue = "true",
                defaultValue = "false",
                description = "on a Redis Cluster, also send every event with classic PUBLISH so that pattern "
                        + "subscriptions hear it; off, an event is one SPUBLISH to its shard and a pattern "
                        + "subscription is refused; the server itself subscribes to none")
        boolean clusterPatterns;

        @Option(names = "--redis-user", defaultValue = "",
                description = "the Redis ACL user to sign in as, on a single node or every node of a cluster; "
                        + "empty for Redis's default user")
        String redisUser;

        @Option(names = "--redis-password-file",
                description = "a file holding the Redis password; or set PIGEONHOLE_REDIS_PASSWORD. "
                        + "Never given on the command line, where others could read it, and never printed")
        Path redisPasswordFile;

        @Option(names = "--redis-tls", arity = "0..1", fallbackValue = "true", defaultValue = "false",
                description = "talk TLS to Redis, a single node or every node of a cluster; a rediss:// URL turns it on too")
        boolean redisTls;

        @Option(names = "--redis-tls-ca",
                description = "PEM certificate of the CA that signed the Redis server's; unset, the JDK's default trust store")
        Path redisTlsCa;

        @Option(names = "--redis-tls-cert",
                description = "PEM client certificate, for a Redis that asks for one (with --redis-tls-key)")
        Path redisTlsCert;

        @Option(names = "--redis-tls-key",
                description = "the PEM (PKCS #8) private key of --redis-tls-cert")
        Path redisTlsKey;

        @Option(names = "--key-layout", defaultValue = "tagged",
                description = "tagged (cluster-safe) or book (Redis in Action's keys, single node)")
        RedisConfig.Layout layout;

        @Option(names = "--key-prefix", defaultValue = "",
                description = "put in front of every Redis key and channel")
        String prefix;

        @Option(names = "--redis-pool-size", defaultValue = "128",
                description = "most connections Jedis opens to each Redis node; Lettuce shares one")
        int poolSize;

        @Option(names = "--redis-durability", defaultValue = "none", converter = DurabilityOption.class,
                description = "none, or replicas=N[,timeout=MS]: answer a write (a send, a new chat, a join, a "
                        + "delivery) only once N Redis replicas hold it, waiting up to MS ms (1000 if left out, "
                        + "below the 2000 ms Redis command timeout); fewer in time is 503 not-durable, the write "
                        + "kept on the primary")
        Durability durability;

        AppConfig config() {
            if (store != StoreKind.REDIS && durability.waits()) {
                // Ignoring it would leave an operator believing writes wait for replicas.
                throw new IllegalArgumentException("--redis-durability " + durability + " waits for Redis replicas, "
                        + "and the store is " + store.name().toLowerCase() + ": leave it at none, or use --store redis");
            }
            AppConfig defaults = AppConfig.defaults();
            if (store == StoreKind.MEMORY) {
                return defaults;
            }
            if (store == StoreKind.POSTGRES) {
                return defaults.withPostgres(PostgresSettings.of(postgresUrl, postgresUser, postgresPassword())
                        .withSchema(postgresSchema).withPoolSize(postgresPoolSize)
                        .withSsl(PostgresSsl.of(postgresSslMode, postgresSslRootCert)));
            }
            RedisSettings.Endpoint endpoint = cluster == null || cluster.isBlank()
                    ? RedisSettings.Endpoint.single(url)
                    : RedisSettings.Endpoint.cluster(cluster);
            RedisSettings.Credentials credentials = new RedisSettings.Credentials(redisUser, redisPassword());
            if (credentials.present() || !redisUser.isEmpty()) {
                if (endpoint.credentials().present()) {
                    throw new IllegalArgumentException("the Redis URL carries a user or password, and so do --redis-user, "
                            + "--redis-password-file or PIGEONHOLE_REDIS_PASSWORD: give them in one place");
                }
                endpoint = endpoint.withCredentials(credentials);
            }
            if (redisTls || redisTlsCa != null || redisTlsCert != null || redisTlsKey != null) {
                RedisSettings.Tls tls = new RedisSettings.Tls(redisTls || endpoint.tls().enabled(), redisTlsCa, redisTlsCert, redisTlsKey);
                // Read now, so that a file that cannot be read is a usage error before anything starts.
                RedisTls.of(tls);
                endpoint = endpoint.withTls(tls);
            }
            return defaults.withRedis(RedisConfig.defaults()
                    .withClient(client)
                    .withEndpoint(endpoint)
                    .withLayout(layout)
                    .withKeyPrefix(prefix)
                    .withPatternsOnCluster(clusterPatterns)
                    .withPoolSize(poolSize)
                    .withDurability(durability));
        }

        /** From the file if one is named, else the environment; empty for a database that asks none. */
        private String postgresPassword() {
            if (postgresPasswordFile != null) {
                return TextFile.read(postgresPasswordFile, "PostgreSQL password file").strip();
            }
            return environment("PIGEONHOLE_POSTGRES_PASSWORD").orElse("");
        }

        /** From the file if one is named, else the environment; empty for a Redis that asks none. */
        private String redisPassword() {
            if (redisPasswordFile != null) {
                return TextFile.read(redisPasswordFile, "Redis password file").strip();
            }
            return environment("PIGEONHOLE_REDIS_PASSWORD").orElse("");
        }

        /** The environment the command line was given (a test's own, or the process's). */
        private Optional<String> environment(String variable) {
            String value = mixee.defaultValueProvider() instanceof OptionSources sources
                    ? sources.environment(variable) : System.getenv(variable);
            return Optional.ofNullable(value).filter(given -> !given.isEmpty());
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
        ConfigFileOption configFile;

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
