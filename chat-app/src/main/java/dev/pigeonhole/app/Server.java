package dev.pigeonhole.app;

import dev.pigeonhole.adapter.http.ChatHttpServer;
import dev.pigeonhole.adapter.http.ChatUseCases;
import dev.pigeonhole.adapter.http.ConsentUseCases;
import dev.pigeonhole.adapter.http.HttpSettings;
import dev.pigeonhole.adapter.http.LiveUseCases;
import dev.pigeonhole.adapter.http.MailboxUseCases;
import dev.pigeonhole.adapter.http.PresenceUseCases;
import dev.pigeonhole.adapter.http.StoreHealth;
import dev.pigeonhole.adapter.http.Tokens;
import dev.pigeonhole.adapter.http.UseCases;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import java.time.Duration;
import java.time.InstantSource;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A running Pigeonhole server: the composition root's use cases behind the HTTP adapter, plus the
 * maintenance every instance offers to do and only one at a time does (pruning presence, and on
 * Redis mending users' chat indexes, each under the chat lock). Retention needs no sweep: every
 * send and acknowledge trims in the same step. With an OTLP endpoint configured it also traces
 * every request, the use cases it calls and their store calls, and sends the spans there.
 */
public final class Server implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(Server.class);
    /**
     * The index sweep runs once every this many maintenance rounds (5 min by default): it only mends
     * what a crash between two steps left, and it reads every online user's chats.
     */
    private static final int INDEX_SWEEP_ROUNDS = 10;

    private final Pigeonhole app;
    private final ChatHttpServer http;
    private final ScheduledExecutorService maintenance;
    private final String store;
    /** The SDK this server built for its OTLP endpoint, closed (and so flushed) last; none without one. */
    private final Optional<OpenTelemetrySdk> exporting;
    private final Duration drainTimeout;
    private final JvmGcMetrics gcMetrics;

    private Server(Pigeonhole app, ChatHttpServer http, ScheduledExecutorService maintenance, String store,
                   Optional<OpenTelemetrySdk> exporting, Duration drainTimeout, JvmGcMetrics gcMetrics) {
        this.app = app;
        this.http = http;
        this.maintenance = maintenance;
        this.store = store;
        this.exporting = exporting;
        this.drainTimeout = drainTimeout;
        this.gcMetrics = gcMetrics;
    }

    public static Server start(AppConfig config, ServerConfig server, InstantSource clock) {
        Optional<OpenTelemetrySdk> exporting = server.otlpEndpoint().map(Telemetry::exportingTo);
        try {
            return start(config, server, clock, exporting.map(OpenTelemetry.class::cast), exporting);
        } catch (RuntimeException e) {
            exporting.ifPresent(Telemetry::flushAndClose);
            throw e;
        }
    }

    /**
     * A server whose spans go to {@code telemetry}, which the caller keeps and closes: for tests,
     * which read them from memory.
     */
    static Server start(AppConfig config, ServerConfig server, InstantSource clock, OpenTelemetry telemetry) {
        return start(config, server, clock, Optional.of(telemetry), Optional.empty());
    }

    private static Server start(AppConfig config, ServerConfig server, InstantSource clock,
                                Optional<OpenTelemetry> telemetry, Optional<OpenTelemetrySdk> exporting) {
        String store = describe(config);
        // First, so that whatever follows in a log (a store that does not answer, too) is known to be this build's.
        LOG.info("Pigeonhole {} starting (store: {})", Version.current(), store);
        // Made before the store, so the store's client libraries record into it as they start.
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        new JvmMemoryMetrics().bindTo(registry);
        new JvmThreadMetrics().bindTo(registry);
        new ClassLoaderMetrics().bindTo(registry);
        new ProcessorMetrics().bindTo(registry);
        // Listens to the JVM's collections until closed.
        JvmGcMetrics gcMetrics = new JvmGcMetrics();
        gcMetrics.bindTo(registry);
        Pigeonhole app;
        try {
            app = telemetry.map(spans -> Pigeonhole.startTraced(config, clock, registry, spans))
                    .orElseGet(() -> Pigeonhole.start(config, clock, registry));
        } catch (RuntimeException e) {
            gcMetrics.close();
            throw e;
        }
        try {
            // /health answers anyone, so it names the backend but not where it runs.
            String storeKind = describeKind(config);
            Tokens tokens = server.jwtProvider().map(provider -> provider.tokens(clock))
                    .or(() -> server.jwtSecret().map(secret -> Tokens.withSecret(secret, server.tokenLifetime(), clock)))
                    .orElseGet(() -> Tokens.withRandomSecret(server.tokenLifetime(), clock));
            if (server.devLoginOn()) {
                LOG.warn("DEV LOGIN IS ON: POST /api/session signs anyone in under any name. Configure an identity "
                        + "provider (--jwt-jwks-url) or a JWT secret (--jwt-secret-file) to turn it off, or "
                        + "--dev-login=false.");
            }
            server.jwtProvider().ifPresent(provider -> LOG.info("Tokens come from the identity provider: {}; this "
                    + "server issues none", provider.describe()));
            if (server.jwtSecret().isEmpty() && server.jwtProvider().isEmpty()) {
                LOG.warn("No JWT secret configured: tokens are signed with a secret made up for this process; they "
                        + "stop working when it restarts and no other instance accepts them.");
            }
            StoreHealth health = () -> app.storeAnswers()
                    ? new StoreHealth.Status(true, storeKind, "answering")
                    : new StoreHealth.Status(false, storeKind, "not answering");
            HttpSettings settings = new HttpSettings(server.devLoginOn(), server.maxRequestBytes(),
                    server.drainTimeout(), HttpSettings.DEFAULT_LIVE_IDLE_TIMEOUT, server.maxLiveConnections(),
                    server.maxUnsentBytes(), server.storeReadings(), server.headerTimeout(),
                    server.maxConnectionsPerAddress());
            ChatHttpServer http = new ChatHttpServer(useCases(app), settings, tokens, health, registry,
                    app::upstreamSubscriptions, Version.current(), telemetry.orElse(OpenTelemetry.noop()))
                    .start(server.host(), server.port());
            ScheduledExecutorService maintenance = Executors.newSingleThreadScheduledExecutor(
                    Thread.ofPlatform().name("pigeonhole-maintenance").daemon().factory());
            long every = server.maintenance().toMillis();
            maintenance.scheduleWithFixedDelay(() -> prune(app), every, every, TimeUnit.MILLISECONDS);
            long sweepEvery = every * INDEX_SWEEP_ROUNDS;
            maintenance.scheduleWithFixedDelay(() -> repairIndexes(app), sweepEvery, sweepEvery, TimeUnit.MILLISECONDS);
            return new Server(app, http, maintenance, store, exporting, server.drainTimeout(), gcMetrics);
        } catch (RuntimeException e) {
            closeQuietly(app);
            gcMetrics.close();
            throw e;
        }
    }

    static UseCases useCases(Pigeonhole app) {
        return new UseCases(
                new ChatUseCases(app.createChat(), app.sendMessage(), app.fetchPending(), app.acknowledgeMessages(),
                        app.readMessages(), app.joinChat(), app.leaveChat(), app.listChats()),
                new MailboxUseCases(app.deliverDirectMessage(), app.readDirectMessages(), app.acknowledgeDirectMessages()),
                new ConsentUseCases(app.listInvitations(), app.acceptInvitation(), app.declineInvitation(),
                        app.blockUsers(), app.chooseAddPolicy()),
                new PresenceUseCases(app.touchPresence(), app.listOnlineUsers()),
                new LiveUseCases(app.subscribeToLiveEvents()));
    }

    /** The use cases behind this server, for a test that fills its store faster than HTTP would. */
    Pigeonhole app() {
        return app;
    }

    public int port() {
        return http.port();
    }

    /** The backend in words, for the start-up line and /health. */
    public String store() {
        return store;
    }

    /** {@link #stop()}; returns at once when nothing is in flight. */
    @Override
    public void close() {
        stop();
    }

    /**
     * Stops gracefully (see {@link ChatHttpServer#stop}): readiness turns 503 and new requests are
     * refused at once, requests in flight get up to the drain timeout to finish, then the listener
     * closes, maintenance stops and the store is closed. Says whether everything finished in time.
     */
    public ChatHttpServer.Stopped stop() {
        LOG.info("stopping: /health/ready answers 503 and new requests are refused; waiting up to {} for the "
                + "requests in flight", drainTimeout);
        ChatHttpServer.Stopped stopped = null;
        try {
            stopped = http.stop(drainTimeout);
        } finally {
            maintenance.shutdownNow();
            closeQuietly(app);
            gcMetrics.close();
            exporting.ifPresent(Telemetry::flushAndClose);
        }
        if (stopped.drained()) {
            LOG.info("stopped in {} ms: every request in flight finished", stopped.took().toMillis());
        } else {
            LOG.warn("stopped in {} ms: the drain timeout of {} passed, {} requests in flight were cut off",
                    stopped.took().toMillis(), drainTimeout, stopped.cutOff());
        }
        return stopped;
    }

    private static void prune(Pigeonhole app) {
        try {
            int gone = app.prunePresence().pruneStale();
            if (gone > 0) {
                LOG.info("presence: {} users went offline", gone);
            }
        } catch (RuntimeException e) {
            // The next round tries again; a store outage must not end the schedule.
            LOG.warn("presence pruning failed: {}", e.getMessage());
        }
    }

    private static void repairIndexes(Pigeonhole app) {
        try {
            int mended = app.repairChatIndexes();
            if (mended > 0) {
                LOG.info("chat index sweep: {} index entries mended", mended);
            }
        } catch (RuntimeException e) {
            LOG.warn("chat index sweep failed: {}", e.getMessage());
        }
    }

    private static String describe(AppConfig config) {
        return switch (config.store()) {
            case MEMORY -> "memory";
            case REDIS -> "redis (" + config.redis().client().name().toLowerCase() + ", "
                    + config.redis().layout().name().toLowerCase() + " keys, " + config.redis().endpoint() + ")";
            case POSTGRES -> "postgres (" + config.postgres().orElseThrow().endpoint() + ", schema "
                    + config.postgres().orElseThrow().schema()
                    + config.postgres().orElseThrow().ssl().mode().map(mode -> ", sslmode " + mode.value()).orElse("")
                    + ")";
        };
    }

    private static String describeKind(AppConfig config) {
        return switch (config.store()) {
            case MEMORY -> "memory";
            case REDIS -> "redis (" + config.redis().client().name().toLowerCase() + ", "
                    + config.redis().layout().name().toLowerCase() + " keys)";
            case POSTGRES -> "postgres";
        };
    }

    private static void closeQuietly(Pigeonhole app) {
        try {
            app.close();
        } catch (Exception e) {
            LOG.warn("closing the store failed: {}", e.toString());
        }
    }
}
