package dev.pigeonhole.app;

import dev.pigeonhole.adapter.http.RequestSpans;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Scope;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.slf4j.MDC;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The one decorator behind every traced use case and port: what a caller sees, and what a trace gets. */
class TracedTest {

    /** Stands in for a port: one answer, one refusal. */
    interface Shelf {
        String take(String item);
    }

    private static final AttributeKey<String> STORE = AttributeKey.stringKey("db.system.name");

    private final InMemorySpanExporter spans = InMemorySpanExporter.create();
    private final SdkTracerProvider provider = SdkTracerProvider.builder()
            .addSpanProcessor(SimpleSpanProcessor.create(spans)).build();
    private final Tracer tracer = provider.get("test");
    private final Shelf shelf = Traced.wrap(Shelf.class, item -> {
        if (item.isEmpty()) {
            throw new IllegalStateException("nothing to take");
        }
        return "took " + item;
    }, tracer, SpanKind.CLIENT, Attributes.of(STORE, "memory"));

    @AfterEach
    void close() {
        provider.close();
    }

    @Test
    void a_call_inside_a_trace_is_a_child_span_named_after_the_interface_and_method() {
        Span parent = tracer.spanBuilder("request").startSpan();
        try (Scope current = parent.makeCurrent()) {
            assertThat(shelf.take("tea")).isEqualTo("took tea");
        } finally {
            parent.end();
        }

        SpanData call = only("Shelf.take");
        assertThat(call.getKind()).isEqualTo(SpanKind.CLIENT);
        assertThat(call.getParentSpanId()).isEqualTo(parent.getSpanContext().getSpanId());
        assertThat(call.getTraceId()).isEqualTo(parent.getSpanContext().getTraceId());
        assertThat(call.getAttributes().get(STORE)).isEqualTo("memory");
        assertThat(call.getStatus().getStatusCode()).isEqualTo(StatusCode.UNSET);
        assertThat(call.getAttributes().get(RequestSpans.REQUEST_ID)).as("no request id was given").isNull();
    }

    @Test
    void a_failing_call_throws_the_original_exception_and_records_it_on_its_span() {
        Span parent = tracer.spanBuilder("request").startSpan();
        try (Scope current = parent.makeCurrent()) {
            assertThatThrownBy(() -> shelf.take(""))
                    .isExactlyInstanceOf(IllegalStateException.class).hasMessage("nothing to take");
        } finally {
            parent.end();
        }

        SpanData call = only("Shelf.take");
        assertThat(call.getStatus().getStatusCode()).isEqualTo(StatusCode.ERROR);
        assertThat(call.getEvents()).singleElement().satisfies(event -> {
            assertThat(event.getName()).isEqualTo("exception");
            assertThat(event.getAttributes().get(AttributeKey.stringKey("exception.message")))
                    .isEqualTo("nothing to take");
        });
    }

    @Test
    void a_call_made_while_serving_a_request_with_an_id_carries_the_id() {
        Span parent = tracer.spanBuilder("request").startSpan();
        try (Scope current = parent.makeCurrent();
             MDC.MDCCloseable id = MDC.putCloseable(RequestSpans.REQUEST_ID_MDC_KEY, "req-42")) {
            shelf.take("tea");
        } finally {
            parent.end();
        }

        assertThat(only("Shelf.take").getAttributes().get(RequestSpans.REQUEST_ID)).isEqualTo("req-42");
    }

    @Test
    void a_call_outside_a_trace_makes_no_span() {
        assertThat(shelf.take("tea")).isEqualTo("took tea");

        assertThat(spans.getFinishedSpanItems()).isEmpty();
    }

    @Test
    void equals_hash_code_and_to_string_make_no_span_even_inside_a_trace() {
        Span parent = tracer.spanBuilder("request").startSpan();
        try (Scope current = parent.makeCurrent()) {
            assertThat(shelf).isEqualTo(shelf).hasSameHashCodeAs(shelf);
            assertThat(shelf.toString()).isNotBlank();
        } finally {
            parent.end();
        }

        assertThat(spans.getFinishedSpanItems()).extracting(SpanData::getName).containsExactly("request");
    }

    private SpanData only(String name) {
        List<SpanData> named = spans.getFinishedSpanItems().stream().filter(span -> span.getName().equals(name)).toList();
        assertThat(named).hasSize(1);
        return named.getFirst();
    }
}
