package dev.pigeonhole.app;

import dev.pigeonhole.adapter.http.IdentityProvider;
import dev.pigeonhole.domain.model.consent.AddPolicy;
import dev.pigeonhole.domain.model.consent.ConsentLimits;
import dev.pigeonhole.domain.model.limits.Limits;
import dev.pigeonhole.domain.model.limits.PendingBudget;
import dev.pigeonhole.domain.model.limits.RateLimit;
import dev.pigeonhole.domain.model.limits.RateLimits;
import ch.qos.logback.classic.LoggerContext;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.time.InstantSource;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;

/** {@code pigeonhole serve}: the HTTP server, until SIGTERM or Ctrl-C stops it gracefully. */
@Command(name = "serve", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Run the chat server.", "Every option is also read from the environment variable it names, "
                + "else from the configuration file (--config), else it takes its default."})
final class ServeCommand implements Callable<Integer> {

    /** The exit status of a stop whose drain timeout cut requests off; 0 says every one finished. */
    static final int NOT_DRAINED = 4;

    @Spec
    CommandLine.Model.CommandSpec spec;

    @Mixin
    ConfigFileOption configFile;

    @Mixin
    Main.StoreOptions store;

    @Option(names = "--host", defaultValue = "127.0.0.1",
            description = "address to listen on; 0.0.0.0 for every interface")
    String host;

    @Option(names = "--port", defaultValue = "8080",
            description = "port to listen on, 0 for any free one")
    int port;

    @Option(names = "--presence-window", defaultValue = "PT15M",
            description = "how recently a user must have been seen to count as online, ISO-8601")
    Duration presenceWindow;

    @Option(names = "--max-message-length", defaultValue = "4096",
            description = "characters in one message")
    int maxMessageLength;

    @Option(names = "--max-members", defaultValue = "1000",
            description = "members of one chat")
    int maxMembers;

    @Option(names = "--max-retained", defaultValue = "10000",
            description = "messages one chat keeps")
    int maxRetained;

    @Option(names = "--mailbox-capacity", defaultValue = "10000",
            description = "messages one mailbox holds")
    int mailboxCapacity;

    @Option(names = "--add-policy", defaultValue = "co-members",
            converter = AddPolicyOption.class,
            description = "who may add a user to a chat directly unless it chose otherwise: co-members (someone "
                    + "already sharing a chat with it) or anyone; everyone else invites")
    AddPolicy addPolicy;

    @Option(names = "--max-chats-per-user", defaultValue = "1000",
            description = "chats one user may be a member of")
    int maxChatsPerUser;

    @Option(names = "--max-invitations", defaultValue = "100",
            description = "pending invitations one user holds, the oldest dropped first; each lapses after 7 days")
    int maxInvitations;

    @Option(names = "--max-request-bytes", defaultValue = "65536",
            description = "largest request body accepted")
    int maxRequestBytes;

    @Option(names = "--max-live-connections", defaultValue = "10",
            description = "live connections (WebSocket and event stream) one user may hold on this server; one more "
                    + "is refused with 429")
    int maxLiveConnections;

    @Option(names = "--max-unsent-bytes", defaultValue = "1048576",
            description = "bytes a live connection may have waiting to be written before its client is cut off as "
                    + "slow")
    int maxUnsentBytes;

    @Option(names = "--header-timeout", defaultValue = "PT10S",
            description = "how long a request's headers may take to arrive, ISO-8601; a connection still sending "
                    + "them then is closed")
    Duration headerTimeout;

    @Option(names = "--max-connections-per-address", defaultValue = "100",
            description = "connections one client address may hold open at once; one more is closed at once")
    int maxConnectionsPerAddress;

    @Option(names = "--live-catch-ups", defaultValue = "16",
            description = "live connections that may read the store for their catch-up at once; others wait up to "
                    + "5 s, then get resync; below --redis-pool-size")
    int liveCatchUps;

    @Option(names = "--rate-send", defaultValue = "20/5s", converter = RateLimitOption.class,
            description = "sends one user may make in one chat, as <count>/<period> (ms, s, m, h), or none; "
                    + "one more is refused with 429")
    RateLimit rateSend;

    @Option(names = "--rate-create", defaultValue = "10/1m",
            converter = RateLimitOption.class,
            description = "chats one user may create")
    RateLimit rateCreate;

    @Option(names = "--rate-invite", defaultValue = "30/1m",
            converter = RateLimitOption.class,
            description = "people one user may add to chats")
    RateLimit rateInvite;

    @Option(names = "--rate-deliver", defaultValue = "30/1m",
            converter = RateLimitOption.class,
            description = "direct messages one user may deliver")
    RateLimit rateDeliver;

    @Option(names = "--pending-max-messages", defaultValue = "1000",
            description = "messages one answer of pending messages, or one live catch-up, holds in all chats; a chat "
                    + "left short says more:true")
    int pendingMaxMessages;

    @Option(names = "--pending-max-bytes", defaultValue = "1048576",
            description = "bytes of message text (UTF-8) one answer of pending messages holds in all chats")
    long pendingMaxBytes;

    @Option(names = "--jwt-secret-file", paramLabel = "FILE",
            description = "a file holding the HS256 signing secret shared by every instance, at least 32 bytes; "
                    + "turns dev login off unless --dev-login says otherwise")
    Path jwtSecretFile;

    @Option(names = "--jwt-secret",
            description = "the signing secret itself, for compatibility: prefer --jwt-secret-file, since a command "
                    + "line or an environment can be read by others; never taken from the configuration file")
    String jwtSecret;

    @Option(names = "--jwt-jwks-url", paramLabel = "URL",
            description = "check tokens with an identity provider's public keys (RS256, ES256) published at this URL, "
                    + "https (http only on a loopback host); kept 5 minutes, fetched again when a token names an "
                    + "unknown key, at most twice per 30 s; the server then issues no tokens and dev login is off")
    String jwtJwksUrl;

    @Option(names = "--jwt-public-key-file", paramLabel = "FILE",
            description = "check tokens with the identity provider's public key in this file: PEM (BEGIN PUBLIC KEY, "
                    + "RSA or EC P-256, or BEGIN CERTIFICATE), a JWK or a JWK set; instead of --jwt-jwks-url")
    Path jwtPublicKeyFile;

    @Option(names = "--jwt-issuer",
            description = "the iss every token from the identity provider must carry; any if unset")
    String jwtIssuer;

    @Option(names = "--jwt-audience",
            description = "a value the aud of every token from the identity provider must hold; any if unset")
    String jwtAudience;

    @Option(names = "--jwt-user-claim", defaultValue = IdentityProvider.DEFAULT_USER_CLAIM,
            description = "the claim of a token from the identity provider that names the user, as a user name "
                    + "(letters, digits, '.', '_', '-'; upper case is read as lower)")
    String jwtUserClaim;

    @Option(names = "--dev-login", arity = "0..1", fallbackValue = "true",
            description = "let POST /api/session sign anyone in by name; on by default only without a JWT secret or "
                    + "identity provider, and then only on a loopback --host: elsewhere it takes --dev-login=true; "
                    + "never with an identity provider")
    Boolean devLogin;

    @Option(names = "--token-lifetime", defaultValue = "PT12H",
            description = "how long a token from dev login stays valid, ISO-8601")
    Duration tokenLifetime;

    @Option(names = "--otlp-endpoint",
            description = "send traces (a span per request, use case and store call) to this OTLP over HTTP URL, "
                    + "e.g. http://collector:4318/v1/traces; none are made without it")
    String otlpEndpoint;

    @Option(names = "--drain-timeout", defaultValue = "PT10S",
            description = "how long a stopping server (SIGTERM, Ctrl-C) lets requests in flight finish, ISO-8601; "
                    + "what is left then is cut off and the exit status is " + NOT_DRAINED + " instead of 0")
    Duration drainTimeout;

    @Option(names = "--log-format", defaultValue = "text",
            description = "text (lines to read) or json (one object per line, to ship), on standard error")
    Logs.Format logFormat;

    @Option(names = "--access-log", arity = "0..1", fallbackValue = "true", defaultValue = "true",
            description = "one line per request on the logger pigeonhole.access: method, route, status, ms, user")
    boolean accessLog;

    @Override
    public Integer call() throws InterruptedException {
        // Nothing has logged yet: the first line already has the chosen shape.
        Logs.use(logFormat, accessLog);
        AppConfig app = store.config()
                .withLimits(new Limits(maxMessageLength, maxMembers, maxRetained, mailboxCapacity,
                        new PendingBudget(pendingMaxMessages, pendingMaxBytes),
                        new RateLimits(rateSend, rateCreate, rateInvite, rateDeliver)))
                .withPresenceWindow(presenceWindow)
                .withLiveCatchUps(liveCatchUps)
                .withConsent(ConsentLimits.DEFAULTS.withDefaultPolicy(addPolicy).withMaxChatsPerUser(maxChatsPerUser)
                        .withMaxInvitations(maxInvitations));
        ServerConfig defaults = ServerConfig.defaults();
        ServerConfig config = new ServerConfig(host, port, jwtSecret(),
                Optional.ofNullable(devLogin), jwtProvider(), tokenLifetime, maxRequestBytes, defaults.maintenance(),
                maxLiveConnections, maxUnsentBytes, headerTimeout, maxConnectionsPerAddress, defaults.storeReadings(),
                ServerConfig.otlpEndpoint(otlpEndpoint), drainTimeout);

        Server server = Server.start(app, config, InstantSource.system());
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            int status = 0;
            try {
                status = server.stop().drained() ? 0 : NOT_DRAINED;
            } catch (RuntimeException e) {
                LoggerFactory.getLogger(ServeCommand.class).error("stopping failed", e);
                status = 1;
            } finally {
                stopped.countDown();
                exit(status);
            }
        }, "pigeonhole-shutdown"));

        PrintWriter out = spec.commandLine().getOut();
        String shownHost = "0.0.0.0".equals(host) || "127.0.0.1".equals(host) ? "localhost" : host;
        out.println("Pigeonhole is listening on http://" + shownHost + ":" + server.port() + " (store: "
                + server.store() + (config.devLoginOn() ? ", dev login on" : "")
                + config.otlpEndpoint().map(endpoint -> ", traces to " + endpoint).orElse("") + "). Ctrl-C stops it.");
        stopped.await();
        return 0;
    }

    /** From --jwt-secret-file, else --jwt-secret; both at once would leave unsaid which one signs. */
    private Optional<String> jwtSecret() {
        Optional<String> given = Optional.ofNullable(jwtSecret).filter(secret -> !secret.isEmpty());
        if (jwtSecretFile == null) {
            return given;
        }
        if (given.isPresent()) {
            throw new IllegalArgumentException("both --jwt-secret-file and --jwt-secret (or PIGEONHOLE_JWT_SECRET) "
                    + "give a signing secret; keep only the file");
        }
        return Optional.of(TextFile.read(jwtSecretFile, "JWT secret file").strip());
    }

    /**
     * From --jwt-jwks-url or --jwt-public-key-file, at most one, and only alone: with a secret as
     * well, which one checks a token would be left unsaid. The claims' options go with a provider only.
     */
    private Optional<JwtProvider> jwtProvider() {
        boolean fromUrl = jwtJwksUrl != null && !jwtJwksUrl.isBlank();
        boolean secret = jwtSecretFile != null || (jwtSecret != null && !jwtSecret.isEmpty());
        int sources = (fromUrl ? 1 : 0) + (jwtPublicKeyFile != null ? 1 : 0) + (secret ? 1 : 0);
        if (sources > 1) {
            throw new IllegalArgumentException("give one source of token keys: --jwt-secret-file, --jwt-jwks-url or "
                    + "--jwt-public-key-file, not several");
        }
        IdentityProvider claims = new IdentityProvider(Optional.ofNullable(jwtIssuer).filter(value -> !value.isBlank()),
                Optional.ofNullable(jwtAudience).filter(value -> !value.isBlank()), jwtUserClaim);
        if (fromUrl) {
            return Optional.of(JwtProvider.fromJwks(JwtProvider.jwksUrl(jwtJwksUrl), claims));
        }
        if (jwtPublicKeyFile != null) {
            String keys = TextFile.read(jwtPublicKeyFile, "JWT public key file");
            return Optional.of(JwtProvider.fromPublicKeys(keys, claims));
        }
        if (!claims.equals(IdentityProvider.anyIssuer())) {
            throw new IllegalArgumentException("--jwt-issuer, --jwt-audience and --jwt-user-claim apply to an identity "
                    + "provider's tokens: give --jwt-jwks-url or --jwt-public-key-file too");
        }
        return Optional.empty();
    }

    /**
     * Ends the process with {@code status} from the shutdown hook. SIGTERM and Ctrl-C make the JVM
     * run its hooks and then exit with 143 or 130, whatever the hooks did, and a hook cannot hand
     * back a status of its own: only {@link Runtime#halt} can, which ends the JVM at once without
     * running what is left of the shutdown. So the log is stopped first (Logback writes out and
     * closes every appender, asynchronous ones included), and the standard streams are flushed.
     * Catching the signal instead would take an unsupported JDK class ({@code sun.misc.Signal}).
     */
    private static void exit(int status) {
        if (LoggerFactory.getILoggerFactory() instanceof LoggerContext logs) {
            logs.stop();
        }
        System.out.flush();
        System.err.flush();
        Runtime.getRuntime().halt(status);
    }
}
