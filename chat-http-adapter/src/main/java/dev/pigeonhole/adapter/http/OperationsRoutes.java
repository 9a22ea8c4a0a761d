package dev.pigeonhole.adapter.http;

import static io.javalin.http.HandlerType.GET;

import dev.pigeonhole.adapter.http.dto.ApiHealth;
import io.javalin.http.Context;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

/**
 * For operators and tools: health, readiness, Prometheus metrics, and the OpenAPI description. No
 * token needed. {@code /health} says whether this process and its store live; {@code /health/ready}
 * whether it takes requests, which it stops doing the moment it starts to stop, while
 * {@code /health} still answers as before.
 */
final class OperationsRoutes {

    static final String OPENAPI_RESOURCE = "openapi.json";
    private static final String PROMETHEUS_TEXT = "text/plain; version=0.0.4; charset=utf-8";

    private final StoreReadings readings;
    private final PrometheusMeterRegistry registry;
    private final InFlight inFlight;
    private final byte[] openApi;
    private final String version;

    OperationsRoutes(StoreReadings readings, PrometheusMeterRegistry registry, InFlight inFlight, String version) {
        this.readings = readings;
        this.registry = registry;
        this.inFlight = inFlight;
        this.version = version;
        this.openApi = openApiDocument();
    }

    void register(Endpoints endpoints) {
        endpoints.forProbes(GET, "/health", this::health);
        endpoints.forProbes(GET, "/health/ready", this::ready);
        endpoints.forAnyone(GET, "/metrics", this::metrics);
        endpoints.forAnyone(GET, "/openapi.json", this::openApi);
    }

    /** As last read in the background: a flood of calls costs the store nothing (StoreReadings). */
    private void health(Context ctx) {
        StoreHealth.Status status = readings.status();
        ctx.status(status.up() ? 200 : 503);
        ChatRoutes.json(ctx, new ApiHealth(status.up() ? "up" : "down", status.store(), status.detail(),
                version));
    }

    /**
     * 200 while the server takes requests and its store answers; 503 once it stops, so a load
     * balancer sends nothing more, and 503 while the store does not answer, as {@code /health}.
     */
    private void ready(Context ctx) {
        StoreHealth.Status status = readings.status();
        if (inFlight.stopping()) {
            ctx.status(503);
            ChatRoutes.json(ctx, new ApiHealth("stopping", status.store(),
                    "the server is stopping: it finishes the requests it has and takes no new ones", version));
        } else {
            ctx.status(status.up() ? 200 : 503);
            ChatRoutes.json(ctx, new ApiHealth(status.up() ? "ready" : "down", status.store(), status.detail(), version));
        }
    }

    private void metrics(Context ctx) {
        ctx.contentType(PROMETHEUS_TEXT);
        ctx.result(registry.scrape());
    }

    private void openApi(Context ctx) {
        ctx.contentType("application/json");
        ctx.result(openApi);
    }

    static byte[] openApiDocument() {
        try (InputStream in = OperationsRoutes.class.getResourceAsStream(OPENAPI_RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException(OPENAPI_RESOURCE + " is missing from the HTTP adapter's resources");
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
