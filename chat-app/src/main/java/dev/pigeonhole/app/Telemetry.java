package dev.pigeonhole.app;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.common.AttributesBuilder;
import io.opentelemetry.exporter.otlp.http.trace.OtlpHttpSpanExporter;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.resources.Resource;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.export.BatchSpanProcessor;
import java.net.URI;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * The OpenTelemetry SDK of a server that sends traces: spans batched in the background and posted
 * as OTLP (protobuf over HTTP, through the JDK's own client) to one endpoint. Built here and passed
 * by hand to whatever traces, never registered globally, so that every server of a test run keeps
 * its own; closing it sends what is still batched.
 */
final class Telemetry {

    /** The instrumentation scope of the use case and store call spans. */
    static final String SCOPE = "dev.pigeonhole";

    /**
     * How long a stopping server waits for its last spans to go out. The exporter retries a
     * collector that does not answer, and that must not hold up a stop for long.
     */
    static final Duration FLUSH_LIMIT = Duration.ofSeconds(5);

    private static final AttributeKey<String> SERVICE_NAME = AttributeKey.stringKey("service.name");
    private static final AttributeKey<String> SERVICE_VERSION = AttributeKey.stringKey("service.version");

    private Telemetry() {
    }

    static OpenTelemetrySdk exportingTo(URI endpoint) {
        OtlpHttpSpanExporter exporter = OtlpHttpSpanExporter.builder().setEndpoint(endpoint.toString()).build();
        SdkTracerProvider traces = SdkTracerProvider.builder()
                .setResource(Resource.getDefault().merge(Resource.create(service())))
                .addSpanProcessor(BatchSpanProcessor.builder(exporter).build())
                .build();
        return OpenTelemetrySdk.builder().setTracerProvider(traces).build();
    }

    /** Sends what is still batched, within {@link #FLUSH_LIMIT}, and lets go of the exporter. */
    static void flushAndClose(OpenTelemetrySdk sdk) {
        sdk.shutdown().join(FLUSH_LIMIT.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Who sends the spans: pigeonhole, and its version when the jar it runs from says it. */
    private static Attributes service() {
        AttributesBuilder service = Attributes.builder().put(SERVICE_NAME, "pigeonhole");
        String version = Telemetry.class.getPackage().getImplementationVersion();
        if (version != null) {
            service.put(SERVICE_VERSION, version);
        }
        return service.build();
    }
}
