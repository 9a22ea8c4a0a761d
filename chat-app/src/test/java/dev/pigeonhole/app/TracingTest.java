package dev.pigeonhole.app;

import dev.pigeonhole.adapter.http.ApiClient;
import dev.pigeonhole.adapter.http.RequestSpans;
import dev.pigeonhole.domain.model.UnknownChatException;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import java.time.Duration;
import java.time.InstantSource;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Traces as a collector would get them: a whole server on a store, its spans kept in memory, one
 * request sent over HTTP. The request's span holds the use case's, which holds the store calls'.
 */
class TracingTest {

    private static final String SEND_ROUTE = "/api/chats/{chat}/messages";
    private static final AttributeKey<String> DB_SYSTEM = AttributeKey.stringKey("db.system.name");

    private final InMemorySpanExporter spans = InMemorySpanExporter.create();
    private final OpenTelemetrySdk telemetry = OpenTelemetrySdk.builder()
            .setTracerProvider(SdkTracerProvider.builder().addSpanProcessor(SimpleSpanProcessor.create(spans)).build())
            .build();
    private Server server;
    private ApiClient api;

    @AfterEach
    void stop() {
        if (api != null) {
            api.close();
        }
        if (server != null) {
            server.close();
        }
        telemetry.close();
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(value = StoreUnderTest.class, names = {"MEMORY", "REDIS_THROUGH_LETTUCE", "POSTGRES"})
    void a_sent_message_is_one_trace_of_the_request_its_use_case_and_its_store_calls(StoreUnderTest store) {
        start(store.config());
        String alice = api.signIn(ApiClient.randomUser("alice"));
        String chat = openChat(alice);
        spans.reset();

        ApiClient.Response sent = api.postJson("/api/chats/" + chat + "/messages", alice, Map.of("message", "hi"));

        assertThat(sent.status()).as(sent.toString()).isEqualTo(201);
        SpanData request = requestSpan("POST " + SEND_ROUTE);
        assertThat(request.getKind()).isEqualTo(SpanKind.SERVER);
        assertThat(request.getParentSpanContext().isValid()).as("a request starts its trace").isFalse();
        assertThat(request.getAttributes().get(AttributeKey.stringKey("http.request.method"))).isEqualTo("POST");
        assertThat(request.getAttributes().get(AttributeKey.stringKey("http.route"))).isEqualTo(SEND_ROUTE);
        assertThat(request.getAttributes().get(AttributeKey.longKey("http.response.status_code"))).isEqualTo(201L);
        assertThat(request.getStatus().getStatusCode()).isEqualTo(StatusCode.UNSET);

        SpanData useCase = childOf(request, "SendMessage.send");
        assertThat(useCase.getKind()).isEqualTo(SpanKind.INTERNAL);
        assertThat(childrenOf(useCase)).as("the store calls of the send").isNotEmpty().allSatisfy(call -> {
            assertThat(call.getKind()).isEqualTo(SpanKind.CLIENT);
            assertThat(call.getTraceId()).isEqualTo(request.getTraceId());
            assertThat(call.getAttributes().get(DB_SYSTEM)).isEqualTo(switch (store) {
                case MEMORY -> "memory";
                case POSTGRES -> "postgresql";
                default -> "redis";
            });
        }).extracting(SpanData::getName).contains("Chats.send");
        assertThat(childOf(request, "TouchPresence.touch").getKind())
                .as("the sign of life every signed-in request records").isEqualTo(SpanKind.INTERNAL);
        // The id the answer and the request's log lines carry finds the trace: every span has it.
        String requestId = sent.header("X-Request-Id").orElseThrow();
        assertThat(spans.getFinishedSpanItems()).filteredOn(span -> span.getTraceId().equals(request.getTraceId()))
                .hasSizeGreaterThanOrEqualTo(3)
                .allSatisfy(span -> assertThat(span.getAttributes().get(RequestSpans.REQUEST_ID)).as(span.getName())
                        .isEqualTo(requestId));
    }

    @Test
    void a_refused_call_records_its_exception_on_the_use_case_and_stays_no_server_error() {
        start(AppConfig.defaults());
        String chat = openChat(api.signIn(ApiClient.randomUser("alice")));
        String stranger = api.signIn(ApiClient.randomUser("mallory"));
        spans.reset();

        ApiClient.Response refused = api.postJson("/api/chats/" + chat + "/messages", stranger,
                Map.of("message", "let me in"));

        // A private chat does not exist for a stranger.
        assertThat(refused.status()).as(refused.toString()).isEqualTo(404);
        SpanData request = requestSpan("POST " + SEND_ROUTE);
        assertThat(request.getAttributes().get(AttributeKey.longKey("http.response.status_code"))).isEqualTo(404L);
        assertThat(request.getStatus().getStatusCode()).as("a 4xx is an answer, not the server's error")
                .isEqualTo(StatusCode.UNSET);
        SpanData useCase = childOf(request, "SendMessage.send");
        assertThat(useCase.getStatus().getStatusCode()).isEqualTo(StatusCode.ERROR);
        assertThat(useCase.getEvents()).anySatisfy(event -> {
            assertThat(event.getName()).isEqualTo("exception");
            assertThat(event.getAttributes().get(AttributeKey.stringKey("exception.type")))
                    .isEqualTo(UnknownChatException.class.getName());
        });
    }

    @Test
    void a_call_outside_a_request_starts_no_trace() {
        start(AppConfig.defaults());
        api.signIn(ApiClient.randomUser("alice"));
        awaitSpan("POST /api/session");
        spans.reset();

        server.app().prunePresence().pruneStale();
        server.app().listOnlineUsers().onlineCount();

        assertThat(spans.getFinishedSpanItems()).isEmpty();
    }

    @Test
    void a_server_with_tracing_wraps_its_use_cases_and_one_without_wraps_none() {
        start(AppConfig.defaults());
        assertThat(Traced.isTraced(server.app().sendMessage())).isTrue();

        try (Server untraced = Server.start(AppConfig.defaults(), ServerConfig.defaults().withPort(0),
                InstantSource.system())) {
            assertThat(List.of(untraced.app().sendMessage(), untraced.app().createChat(),
                    untraced.app().touchPresence(), untraced.app().subscribeToLiveEvents()))
                    .noneMatch(Traced::isTraced);
        }
    }

    private void start(AppConfig config) {
        server = Server.start(config, ServerConfig.defaults().withPort(0).withDevLogin(true), InstantSource.system(),
                telemetry);
        api = ApiClient.onPort(server.port());
    }

    /** A chat of the holder of {@code token} alone, opened with a first message. */
    private String openChat(String token) {
        ApiClient.Response created = api.postJson("/api/chats", token, Map.of("members", List.of(), "message", "first"));
        assertThat(created.status()).as(created.toString()).isEqualTo(201);
        return created.json().get("chatId").stringValue();
    }

    /**
     * The one span of the request named {@code name}, once it has ended: the server may answer the
     * client a moment before it closes the request's span.
     */
    private SpanData requestSpan(String name) {
        SpanData request = awaitSpan(name);
        assertThat(spans.getFinishedSpanItems()).filteredOn(span -> span.getName().equals(name)).hasSize(1);
        return request;
    }

    private SpanData awaitSpan(String name) {
        return await().atMost(Duration.ofSeconds(10)).until(() -> spans.getFinishedSpanItems().stream()
                .filter(span -> span.getName().equals(name)).findFirst().orElse(null), span -> span != null);
    }

    private SpanData childOf(SpanData parent, String name) {
        List<SpanData> named = childrenOf(parent).stream().filter(span -> span.getName().equals(name)).toList();
        assertThat(named).as("spans named %s under %s", name, parent.getName()).hasSize(1);
        return named.getFirst();
    }

    private List<SpanData> childrenOf(SpanData parent) {
        List<SpanData> children = spans.getFinishedSpanItems().stream()
                .filter(span -> span.getParentSpanId().equals(parent.getSpanId()))
                .toList();
        assertThat(children).allSatisfy(child -> assertThat(child.getTraceId()).isEqualTo(parent.getTraceId()));
        return children;
    }
}
