package dev.pigeonhole.app;

import dev.pigeonhole.domain.model.consent.AddPolicy;
import dev.pigeonhole.domain.model.consent.ConsentLimits;
import dev.pigeonhole.domain.model.limits.Limits;
import dev.pigeonhole.domain.model.limits.PendingBudget;
import dev.pigeonhole.domain.model.limits.RateLimit;
import dev.pigeonhole.domain.model.limits.RateLimits;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.time.Duration;
import java.time.InstantSource;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;

/** {@code pigeonhole serve}: the HTTP server, until SIGTERM or Ctrl-C stops it gracefully. */
@Command(name = "serve", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Run the chat server. Every option also reads the environment variable it names.")
final class ServeCommand implements Callable<Integer> {

    @Spec
    CommandLine.Model.CommandSpec spec;

    @Mixin
    Main.StoreOptions store;

    @Option(names = "--host", defaultValue = "${env:PIGEONHOLE_HOST:-127.0.0.1}",
            description = "address to listen on; 0.0.0.0 for every interface (env PIGEONHOLE_HOST; default: ${DEFAULT-VALUE})")
    String host;

    @Option(names = "--port", defaultValue = "${env:PIGEONHOLE_PORT:-8080}",
            description = "port to listen on, 0 for any free one (env PIGEONHOLE_PORT; default: ${DEFAULT-VALUE})")
    int port;

    @Option(names = "--presence-window", defaultValue = "${env:PIGEONHOLE_PRESENCE_WINDOW:-PT15M}",
            description = "how recently a user must have been seen to count as online, ISO-8601 "
                    + "(env PIGEONHOLE_PRESENCE_WINDOW; default: ${DEFAULT-VALUE})")
    Duration presenceWindow;

    @Option(names = "--max-message-length", defaultValue = "${env:PIGEONHOLE_MAX_MESSAGE_LENGTH:-4096}",
            description = "characters in one message (env PIGEONHOLE_MAX_MESSAGE_LENGTH; default: ${DEFAULT-VALUE})")
    int maxMessageLength;

    @Option(names = "--max-members", defaultValue = "${env:PIGEONHOLE_MAX_MEMBERS:-1000}",
            description = "members of one chat (env PIGEONHOLE_MAX_MEMBERS; default: ${DEFAULT-VALUE})")
    int maxMembers;

    @Option(names = "--max-retained", defaultValue = "${env:PIGEONHOLE_MAX_RETAINED:-10000}",
            description = "messages one chat keeps (env PIGEONHOLE_MAX_RETAINED; default: ${DEFAULT-VALUE})")
    int maxRetained;

    @Option(names = "--mailbox-capacity", defaultValue = "${env:PIGEONHOLE_MAILBOX_CAPACITY:-10000}",
            description = "messages one mailbox holds (env PIGEONHOLE_MAILBOX_CAPACITY; default: ${DEFAULT-VALUE})")
    int mailboxCapacity;

    @Option(names = "--add-policy", defaultValue = "${env:PIGEONHOLE_ADD_POLICY:-co-members}",
            converter = AddPolicyOption.class,
            description = "who may add a user to a chat directly unless it chose otherwise: co-members (someone "
                    + "already sharing a chat with it) or anyone; everyone else invites "
                    + "(env PIGEONHOLE_ADD_POLICY; default: ${DEFAULT-VALUE})")
    AddPolicy addPolicy;

    @Option(names = "--max-chats-per-user", defaultValue = "${env:PIGEONHOLE_MAX_CHATS_PER_USER:-1000}",
            description = "chats one user may be a member of (env PIGEONHOLE_MAX_CHATS_PER_USER; default: "
                    + "${DEFAULT-VALUE})")
    int maxChatsPerUser;

    @Option(names = "--max-invitations", defaultValue = "${env:PIGEONHOLE_MAX_INVITATIONS:-100}",
            description = "pending invitations one user holds, the oldest dropped first; each lapses after 7 days "
                    + "(env PIGEONHOLE_MAX_INVITATIONS; default: ${DEFAULT-VALUE})")
    int maxInvitations;

    @Option(names = "--max-request-bytes", defaultValue = "${env:PIGEONHOLE_MAX_REQUEST_BYTES:-65536}",
            description = "largest request body accepted (env PIGEONHOLE_MAX_REQUEST_BYTES; default: ${DEFAULT-VALUE})")
    int maxRequestBytes;

    @Option(names = "--max-live-connections", defaultValue = "${env:PIGEONHOLE_MAX_LIVE_CONNECTIONS:-10}",
            description = "live connections (WebSocket and event stream) one user may hold on this server; one more "
                    + "is refused with 429 (env PIGEONHOLE_MAX_LIVE_CONNECTIONS; default: ${DEFAULT-VALUE})")
    int maxLiveConnections;

    @Option(names = "--max-unsent-bytes", defaultValue = "${env:PIGEONHOLE_MAX_UNSENT_BYTES:-1048576}",
            description = "bytes a live connection may have waiting to be written before its client is cut off as "
                    + "slow (env PIGEONHOLE_MAX_UNSENT_BYTES; default: ${DEFAULT-VALUE})")
    int maxUnsentBytes;

    @Option(names = "--header-timeout", defaultValue = "${env:PIGEONHOLE_HEADER_TIMEOUT:-PT10S}",
            description = "how long a request's headers may take to arrive, ISO-8601; a connection still sending "
                    + "them then is closed (env PIGEONHOLE_HEADER_TIMEOUT; default: ${DEFAULT-VALUE})")
    Duration headerTimeout;

    @Option(names = "--max-connections-per-address", defaultValue = "${env:PIGEONHOLE_MAX_CONNECTIONS_PER_ADDRESS:-100}",
            description = "connections one client address may hold open at once; one more is closed at once "
                    + "(env PIGEONHOLE_MAX_CONNECTIONS_PER_ADDRESS; default: ${DEFAULT-VALUE})")
    int maxConnectionsPerAddress;

    @Option(names = "--live-catch-ups", defaultValue = "${env:PIGEONHOLE_LIVE_CATCH_UPS:-16}",
            description = "live connections that may read the store for their catch-up at once; others wait up to "
                    + "5 s, then get resync; below --redis-pool-size (env PIGEONHOLE_LIVE_CATCH_UPS; "
                    + "default: ${DEFAULT-VALUE})")
    int liveCatchUps;

    @Option(names = "--rate-send", defaultValue = "${env:PIGEONHOLE_RATE_SEND:-20/5s}", converter = RateLimitOption.class,
            description = "sends one user may make in one chat, as <count>/<period> (ms, s, m, h), or none; "
                    + "one more is refused with 429 (env PIGEONHOLE_RATE_SEND; default: ${DEFAULT-VALUE})")
    RateLimit rateSend;

    @Option(names = "--rate-create", defaultValue = "${env:PIGEONHOLE_RATE_CREATE:-10/1m}",
            converter = RateLimitOption.class,
            description = "chats one user may create (env PIGEONHOLE_RATE_CREATE; default: ${DEFAULT-VALUE})")
    RateLimit rateCreate;

    @Option(names = "--rate-invite", defaultValue = "${env:PIGEONHOLE_RATE_INVITE:-30/1m}",
            converter = RateLimitOption.class,
            description = "people one user may add to chats (env PIGEONHOLE_RATE_INVITE; default: ${DEFAULT-VALUE})")
    RateLimit rateInvite;

    @Option(names = "--rate-deliver", defaultValue = "${env:PIGEONHOLE_RATE_DELIVER:-30/1m}",
            converter = RateLimitOption.class,
            description = "direct messages one user may deliver (env PIGEONHOLE_RATE_DELIVER; default: ${DEFAULT-VALUE})")
    RateLimit rateDeliver;

    @Option(names = "--pending-max-messages", defaultValue = "${env:PIGEONHOLE_PENDING_MAX_MESSAGES:-1000}",
            description = "messages one answer of pending messages, or one live catch-up, holds in all chats; a chat "
                    + "left short says more:true (env PIGEONHOLE_PENDING_MAX_MESSAGES; default: ${DEFAULT-VALUE})")
    int pendingMaxMessages;

    @Option(names = "--pending-max-bytes", defaultValue = "${env:PIGEONHOLE_PENDING_MAX_BYTES:-1048576}",
            description = "bytes of message text (UTF-8) one answer of pending messages holds in all chats "
                    + "(env PIGEONHOLE_PENDING_MAX_BYTES; default: ${DEFAULT-VALUE})")
    long pendingMaxBytes;

    @Option(names = "--jwt-secret", defaultValue = "${env:PIGEONHOLE_JWT_SECRET}",
            description = "HS256 signing secret shared by every instance, at least 32 bytes; turns dev login off "
                    + "unless --dev-login says otherwise (env PIGEONHOLE_JWT_SECRET)")
    String jwtSecret;

    @Option(names = "--dev-login", arity = "0..1", fallbackValue = "true", defaultValue = "${env:PIGEONHOLE_DEV_LOGIN}",
            description = "let POST /api/session sign anyone in by name; on by default only without a JWT secret, "
                    + "and then only on a loopback --host: elsewhere it takes --dev-login=true (env PIGEONHOLE_DEV_LOGIN)")
    Boolean devLogin;

    @Option(names = "--token-lifetime", defaultValue = "${env:PIGEONHOLE_TOKEN_LIFETIME:-PT12H}",
            description = "how long a token from dev login stays valid, ISO-8601 "
                    + "(env PIGEONHOLE_TOKEN_LIFETIME; default: ${DEFAULT-VALUE})")
    Duration tokenLifetime;

    @Option(names = "--log-format", defaultValue = "${env:PIGEONHOLE_LOG_FORMAT:-text}",
            description = "text (lines to read) or json (one object per line, to ship), on standard error "
                    + "(env PIGEONHOLE_LOG_FORMAT; default: ${DEFAULT-VALUE})")
    Logs.Format logFormat;

    @Option(names = "--access-log", arity = "0..1", fallbackValue = "true",
            defaultValue = "${env:PIGEONHOLE_ACCESS_LOG:-true}",
            description = "one line per request on the logger pigeonhole.access: method, route, status, ms, user "
                    + "(env PIGEONHOLE_ACCESS_LOG; default: ${DEFAULT-VALUE})")
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
        ServerConfig config = new ServerConfig(host, port, Optional.ofNullable(jwtSecret).filter(s -> !s.isEmpty()),
                Optional.ofNullable(devLogin), tokenLifetime, maxRequestBytes, defaults.maintenance(), maxLiveConnections,
                maxUnsentBytes, headerTimeout, maxConnectionsPerAddress, defaults.storeReadings());

        Server server = Server.start(app, config, InstantSource.system());
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            server.close();
            stopped.countDown();
        }, "pigeonhole-shutdown"));

        PrintWriter out = spec.commandLine().getOut();
        String shownHost = "0.0.0.0".equals(host) || "127.0.0.1".equals(host) ? "localhost" : host;
        out.println("Pigeonhole is listening on http://" + shownHost + ":" + server.port() + " (store: "
                + server.store() + (config.devLoginOn() ? ", dev login on" : "") + "). Ctrl-C stops it.");
        stopped.await();
        return 0;
    }
}
