package dev.pigeonhole.adapter.http;

import io.javalin.Javalin;
import io.javalin.http.Context;
import io.javalin.http.HandlerType;
import io.javalin.http.staticfiles.Location;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.opentelemetry.api.OpenTelemetry;
import java.net.InetAddress;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.function.IntSupplier;
import org.eclipse.jetty.ee10.servlet.SessionHandler;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.session.NullSessionCache;
import org.eclipse.jetty.session.NullSessionDataStore;

/**
 * The HTTP API of docs/DESIGN.md §5 on Javalin, one virtual thread per request. It drives the domain
 * through {@link UseCases} only; which store is behind them is the composition root's business.
 */
public final class ChatHttpServer implements AutoCloseable {

    /** The largest message or frame a client may send on a live socket, which expects none. */
    static final int MAX_INCOMING_MESSAGE_BYTES = 1024;

    private final Javalin javalin;
    private final LiveConnections live;
    private final StoreReadings readings;
    private final ConnectionsPerAddress connectionsPerAddress;
    private final InFlight inFlight = new InFlight();
    private final Duration stopTimeout;
    /** Jetty's server, set as Javalin builds it: a stop that gave up waiting tells it to wait no more. */
    private volatile Server jetty;

    /** A server that traces nothing. */
    public ChatHttpServer(UseCases useCases, HttpSettings settings, Tokens tokens, StoreHealth health,
                          PrometheusMeterRegistry registry, IntSupplier upstreamSubscriptions, String version) {
        this(useCases, settings, tokens, health, registry, upstreamSubscriptions, version, OpenTelemetry.noop());
    }

    /**
     * @param upstreamSubscriptions how many pub/sub subscriptions this process holds, for metrics
     * @param version               the release this server is, which {@code /health} tells
     * @param telemetry             where each request's span goes ({@link RequestSpans})
     */
    public ChatHttpServer(UseCases useCases, HttpSettings settings, Tokens tokens, StoreHealth health,
                          PrometheusMeterRegistry registry, IntSupplier upstreamSubscriptions, String version,
                          OpenTelemetry telemetry) {
        Objects.requireNonNull(useCases, "useCases");
        Objects.requireNonNull(settings, "settings");
        Objects.requireNonNull(tokens, "tokens");
        Objects.requireNonNull(health, "health");
        Objects.requireNonNull(registry, "registry");
        Objects.requireNonNull(upstreamSubscriptions, "upstreamSubscriptions");
        Objects.requireNonNull(version, "version");
        RequestSpans spans = new RequestSpans(Objects.requireNonNull(telemetry, "telemetry"));
        HttpMetrics metrics = new HttpMetrics(registry);
        this.stopTimeout = settings.stopTimeout();
        this.connectionsPerAddress = new ConnectionsPerAddress(settings.maxConnectionsPerAddress());
        this.live = new LiveConnections(settings.maxLiveConnections());
        this.readings = new StoreReadings(health, useCases.presence().listOnlineUsers(), settings.storeReadingsEvery());
        metrics.gauge("pigeonhole.presence.online", "users seen within the presence window, as last read",
                readings::onlineUsers);
        metrics.gauge("pigeonhole.live.sessions", "open live connections, WebSocket and Server-Sent Events", live::count);
        metrics.gauge("pigeonhole.live.event.streams", "open live connections on Server-Sent Events", live::eventStreams);
        metrics.gauge("pigeonhole.http.requests.in.flight", "requests a route is working on, open event streams "
                + "included: what a graceful stop waits for", inFlight::working);
        metrics.gauge("pigeonhole.upstream.subscriptions", "pub/sub subscriptions this process holds upstream",
                upstreamSubscriptions::getAsInt);
        this.javalin = Javalin.create(config -> {
            config.concurrency.useVirtualThreads = true;
            config.startup.showJavalinBanner = false;
            config.http.maxRequestSize = settings.maxRequestBytes();
            config.http.prefer405over404 = true;
            config.jetty.modifyServer(server -> {
                jetty = server;
                // Requests in flight have finished when Jetty is told to stop (see stop()), but
                // what no route counts (a file of the page) may still be going out: Jetty's
                // graceful stop lets that finish, within its stop timeout, which stop() sets.
                server.setStopTimeout(settings.stopTimeout().toMillis());
                // What Jetty refuses before any route sees it (a broken URI, oversized headers).
                server.setErrorHandler(new JettyProblems());
                // Both look at the connectors, which Javalin adds after this and before starting the server.
                server.addBean(new HeaderDeadline(server, settings.headerTimeout()));
                server.addBean(connectionsPerAddress.installer(server));
            });
            config.jetty.modifyWebSocketServletFactory(factory -> {
                factory.setIdleTimeout(settings.liveIdleTimeout());
                // The client sends nothing on a live socket, and what it sends is ignored: a message
                // of more than a few bytes is no client of ours, and Jetty refuses it (1009) instead
                // of gathering up to its default 64 KiB for us to throw away.
                factory.setMaxTextMessageSize(MAX_INCOMING_MESSAGE_BYTES);
                factory.setMaxBinaryMessageSize(MAX_INCOMING_MESSAGE_BYTES);
                factory.setMaxFrameSize(MAX_INCOMING_MESSAGE_BYTES);
            });
            // The API signs in with tokens and keeps no HTTP session, but Javalin asks for one on
            // every WebSocket upgrade (to copy its attributes into the socket's context), and
            // Jetty's default cache would keep each of those sessions, one per socket ever opened,
            // with no expiry. The null cache keeps none past its request.
            config.jetty.modifyServletContextHandler(handler -> {
                SessionHandler sessions = handler.getSessionHandler();
                NullSessionCache none = new NullSessionCache(sessions);
                none.setSessionDataStore(new NullSessionDataStore());
                sessions.setSessionCache(none);
                sessions.setUsingCookies(false);
            });

            // The web page: plain files, no build step; everything it does goes through the API.
            config.staticFiles.add(files -> {
                files.hostedPath = "/";
                files.directory = "/dev/pigeonhole/adapter/http/public";
                files.location = Location.CLASSPATH;
            });
            // Every request gets its id first, so that every answer carries it and every line logged for it;
            // the access log's line comes once the answer is written.
            config.routes.before(AccessLog::begin);
            config.requestLogger.http(AccessLog::end);
            // The security headers go on every answer: the page's files, the routes, and what no route answered.
            config.routes.before(SecurityHeaders::add);

            Endpoints endpoints = new Endpoints(config.routes, tokens, useCases.presence().touchPresence(), metrics,
                    spans, settings.maxRequestBytes(), inFlight);
            new SessionRoutes(tokens, settings.devLogin()).register(endpoints);
            new ChatRoutes(useCases.chat(), metrics).register(endpoints);
            new MailboxRoutes(useCases.mailbox(), metrics).register(endpoints);
            new ConsentRoutes(useCases.consent()).register(endpoints);
            new PresenceRoutes(useCases.presence()).register(endpoints);
            new OperationsRoutes(readings, registry, inFlight, version).register(endpoints);
            new LiveRoutes(useCases.live(), live, metrics, settings).register(config.routes, endpoints);

            // What no route answered: Javalin's own 404 and 405, and anything thrown outside a route.
            config.routes.error(404, "*", ctx -> unanswered(ctx, Problem.of(404, "no-such-route", "No such route",
                    ctx.method() + " " + ctx.path() + " is not part of this API; see /openapi.json")));
            config.routes.error(405, "*", ctx -> unanswered(ctx, Problem.of(405, "method-not-allowed",
                    "Method not allowed", ctx.method() + " is not allowed on " + ctx.path() + "; see /openapi.json")));
            config.routes.exception(Exception.class, (failure, ctx) -> Problems.answer(ctx, Problems.of(failure)));
        });
    }

    /** Starts listening; port 0 picks a free one, which {@link #port()} then tells. */
    public ChatHttpServer start(String host, int port) {
        readings.start();
        try {
            javalin.start(host, port);
        } catch (RuntimeException e) {
            readings.close();
            throw e;
        }
        return this;
    }

    public int port() {
        return javalin.port();
    }

    /** How many connections this address holds open now, as the per-address limit counts them. */
    int connectionsFrom(InetAddress address) {
        return connectionsPerAddress.openFrom(address);
    }

    /** Every route as "METHOD /path", as the router holds them: what the OpenAPI test checks. */
    List<String> routes() {
        return javalin.unsafe.internalRouter.allHttpHandlers().stream()
                // Every GET route also takes HEAD (see Endpoints); HTTP implies it, so no description lists it.
                // Hooks (the live socket's upgrade, the headers every answer gets) are no routes of
                // their own: the README describes the live protocol.
                .filter(parsed -> parsed.endpoint.method.isHttpMethod() && parsed.endpoint.method != HandlerType.HEAD)
                .map(parsed -> parsed.endpoint.method.name() + " " + parsed.endpoint.path)
                .toList();
    }

    /** How a stop went: whether every request in flight finished in time, how long it took, how many were cut off. */
    public record Stopped(boolean drained, Duration took, int cutOff) {
    }

    /** {@link #stop} within the settings' stop timeout. */
    @Override
    public void close() {
        stop(stopTimeout);
    }

    /**
     * Stops gracefully: at once readiness turns 503 and every new request is refused with the
     * {@code server-stopping} problem, while the listener stays open to say so (a refused
     * connection tells a client less than a 503); every live connection is told the server goes
     * away (WebSocket 1001, the event stream's last {@code closed} event), so its client
     * reconnects elsewhere. Once no request is in flight, or {@code drainTimeout} has passed,
     * Jetty stops, cutting off whatever is left. Returns at once when nothing is in flight.
     */
    public Stopped stop(Duration drainTimeout) {
        long started = System.nanoTime();
        int left;
        try {
            inFlight.stop();
            live.stopAll();
            left = awaitIdle(drainTimeout);
            Duration remaining = drainTimeout.minusNanos(System.nanoTime() - started);
            // Drained: Jetty may let what no route counts finish in the time left. Not drained: it
            // cuts off at once what did not finish in time.
            if (jetty != null) {
                jetty.setStopTimeout(left == 0 && remaining.isPositive() ? remaining.toMillis() : 0);
            }
            javalin.stop();
        } finally {
            readings.close();
        }
        return new Stopped(left == 0, Duration.ofNanos(System.nanoTime() - started), left);
    }

    private int awaitIdle(Duration drainTimeout) {
        try {
            return inFlight.awaitIdle(drainTimeout);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return inFlight.working();
        }
    }

    private static void unanswered(Context ctx, Problem problem) {
        String answered = ctx.res().getContentType();
        if (answered == null || !answered.startsWith(Problems.CONTENT_TYPE)) {
            Problems.answer(ctx, problem);
        }
    }
}
