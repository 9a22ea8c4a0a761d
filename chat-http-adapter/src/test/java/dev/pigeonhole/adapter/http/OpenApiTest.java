package dev.pigeonhole.adapter.http;

import dev.pigeonhole.domain.model.limits.Limits;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * openapi.json is what clients are generated from, so it must say what the server does: the same
 * routes, and every answer a client can get listed with the body it really has. One realistic
 * session, errors included, runs once against the real server; each test then holds one promise
 * of the document against what was recorded.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class OpenApiTest {

    private static final Pattern TEMPLATE_PARAMETER = Pattern.compile("\\{[^}/]+}");
    /** Text that alone fills the default request limit, so any body carrying it is over. */
    private static final String OVER_THE_LIMIT = "x".repeat(HttpSettings.DEFAULT_MAX_REQUEST_BYTES);

    /** One request of the session: the route it was meant for, the status it was meant to provoke, and what came back. */
    private record Exchange(String method, String template, String path, int provoked, ApiClient.Response response) {

        String route() {
            return method + " " + template;
        }

        @Override
        public String toString() {
            return method + " " + path + " -> " + response.status() + " " + response.body();
        }
    }

    private final OpenApiDocument document = OpenApiDocument.load();
    private final List<Exchange> exchanges = new ArrayList<>();
    private TestApi api;

    @BeforeAll
    void run_a_session_that_reaches_every_route() {
        // Small limits, so a full chat and a full mailbox take a request or two rather than thousands.
        api = TestApi.start(Limits.DEFAULTS.withMaxMembers(3).withMailboxCapacity(2), TestApi.settings());

        String alice = signIn("alice");
        String bob = signIn("bob");
        String carol = signIn("carol");
        String dave = signIn("dave");
        call(200, "GET", "/api/session", alice, null);
        call(401, "GET", "/api/session", "not-a-token", null);
        call(400, "POST", "/api/session", null, "{\"user\":\"not a valid id\"}");
        call(400, "POST", "/api/session", null, "{\"user\":\"eve\",\"role\":\"admin\"}");

        call(201, "POST", "/api/chats", alice, "{\"members\":[\"bob\"],\"message\":\"lunch?\",\"chatId\":\"lunch\"}");
        call(201, "POST", "/api/chats", alice, "{\"members\":[\"carol\"],\"message\":\"hi carol\"}");
        // To dave, who is in neither, the private lunch is unknown (404) and the open picnic says 403.
        call(201, "POST", "/api/chats", alice, "{\"members\":[],\"message\":\"all welcome\",\"chatId\":\"picnic\","
                + "\"open\":true}");
        call(409, "POST", "/api/chats", alice, "{\"members\":[\"bob\"],\"message\":\"again\",\"chatId\":\"lunch\"}");
        call(400, "POST", "/api/chats", alice, "{\"members\":[\"bob\",\"carol\",\"dave\"],\"message\":\"crowd\"}");
        call(400, "POST", "/api/chats", alice, "{\"members\":[\"bob\"],\"message\":");
        call(400, "POST", "/api/chats", alice, "{\"members\":\"bob\",\"message\":\"hi\"}");
        call(401, "POST", "/api/chats", null, "{\"members\":[\"bob\"],\"message\":\"hi\"}");
        call(413, "POST", "/api/chats", alice, "{\"members\":[],\"message\":\"" + OVER_THE_LIMIT + "\"}");
        call(200, "GET", "/api/chats", alice, null);
        call(401, "GET", "/api/chats", "not-a-token", null);

        call(201, "POST", "/api/chats/{chat}/messages", bob, "{\"message\":\"yes\"}", "lunch");
        call(201, "POST", "/api/chats/{chat}/messages", bob, "{\"message\":\"noon?\"}", "lunch");
        call(400, "POST", "/api/chats/{chat}/messages", bob, "{\"message\":\"   \"}", "lunch");
        call(403, "POST", "/api/chats/{chat}/messages", dave, "{\"message\":\"let me in\"}", "picnic");
        call(404, "POST", "/api/chats/{chat}/messages", dave, "{\"message\":\"let me in\"}", "lunch");
        call(404, "POST", "/api/chats/{chat}/messages", bob, "{\"message\":\"anyone?\"}", "nowhere");
        call(413, "POST", "/api/chats/{chat}/messages", bob, "{\"message\":\"" + OVER_THE_LIMIT + "\"}", "lunch");

        call(200, "GET", "/api/chats/{chat}/messages?after=1&limit=10", alice, null, "lunch");
        call(400, "GET", "/api/chats/{chat}/messages?after=soon", alice, null, "lunch");
        call(403, "GET", "/api/chats/{chat}/messages", dave, null, "picnic");
        call(404, "GET", "/api/chats/{chat}/messages", dave, null, "lunch");
        call(404, "GET", "/api/chats/{chat}/messages", alice, null, "nowhere");

        call(200, "GET", "/api/pending?limit=10", alice, null);
        call(400, "GET", "/api/pending?limit=0", alice, null);

        call(204, "POST", "/api/chats/{chat}/read", alice, "{\"upTo\":3}", "lunch");
        call(400, "POST", "/api/chats/{chat}/read", alice, "{\"upTo\":\"3\"}", "lunch");
        call(403, "POST", "/api/chats/{chat}/read", dave, "{\"upTo\":1}", "picnic");
        call(404, "POST", "/api/chats/{chat}/read", alice, "{\"upTo\":1}", "nowhere");
        call(204, "POST", "/api/read", alice, "{\"chats\":{\"lunch\":3}}");
        call(400, "POST", "/api/read", alice, "{\"chats\":{}}");
        call(403, "POST", "/api/read", dave, "{\"chats\":{\"picnic\":1}}");
        call(404, "POST", "/api/read", dave, "{\"chats\":{\"lunch\":1}}");
        call(404, "POST", "/api/read", alice, "{\"chats\":{\"lunch\":1,\"nowhere\":1}}");

        call(204, "POST", "/api/chats/{chat}/members", alice, "{\"user\":\"carol\"}", "lunch");
        call(409, "POST", "/api/chats/{chat}/members", alice, "{\"user\":\"dave\"}", "lunch");
        call(403, "POST", "/api/chats/{chat}/members", dave, "{\"user\":\"carol\"}", "picnic");
        call(404, "POST", "/api/chats/{chat}/members", dave, null, "lunch");
        call(404, "POST", "/api/chats/{chat}/members", dave, null, "nowhere");
        call(400, "POST", "/api/chats/{chat}/members", alice, "{\"user\":\"no one\"}", "lunch");

        call(403, "DELETE", "/api/chats/{chat}/members/{user}", alice, null, "lunch", "bob");
        call(204, "DELETE", "/api/chats/{chat}/members/{user}", carol, null, "lunch", "carol");
        call(404, "DELETE", "/api/chats/{chat}/members/{user}", carol, null, "nowhere", "carol");

        // Alice shares lunch with bob; carol left it and dave was never in: strangers share a tenth, here one.
        call(201, "POST", "/api/users/{user}/mailbox", alice, "{\"message\":\"psst\"}", "bob");
        call(201, "POST", "/api/users/{user}/mailbox", dave, "{\"message\":\"psst too\"}", "bob");
        call(429, "POST", "/api/users/{user}/mailbox", carol, "{\"message\":\"and me\"}", "bob");
        call(409, "POST", "/api/users/{user}/mailbox", alice, "{\"message\":\"and again\"}", "bob");
        call(400, "POST", "/api/users/{user}/mailbox", dave, "{\"text\":\"hi\"}", "bob");
        call(200, "GET", "/api/mailbox?max=1", bob, null);
        call(200, "GET", "/api/mailbox", bob, null);
        call(400, "GET", "/api/mailbox?max=lots", bob, null);
        call(204, "POST", "/api/mailbox/read", bob, "{\"upTo\":1}");
        call(400, "POST", "/api/mailbox/read", bob, "{\"upTo\":3}");

        // The session's server adds directly, as the book does; erin asks for invitations instead.
        String erin = signIn("erin");
        call(200, "GET", "/api/settings", erin, null);
        call(204, "PUT", "/api/settings", erin, "{\"addPolicy\":\"co-members\"}");
        call(400, "PUT", "/api/settings", erin, "{\"addPolicy\":\"friends\"}");
        call(201, "POST", "/api/chats", dave, "{\"members\":[\"erin\"],\"message\":\"dinner?\",\"chatId\":\"dinner\"}");
        call(201, "POST", "/api/chats", dave, "{\"members\":[\"erin\"],\"message\":\"supper?\",\"chatId\":\"supper\"}");
        call(204, "POST", "/api/chats/{chat}/members", alice, "{\"user\":\"erin\"}", "lunch");
        call(204, "POST", "/api/chats/{chat}/members", alice, "{\"user\":\"carol\"}", "lunch");
        call(200, "GET", "/api/invitations", erin, null);
        call(204, "POST", "/api/invitations/{chat}/accept", erin, null, "dinner");
        call(404, "POST", "/api/invitations/{chat}/accept", erin, null, "dinner");
        call(409, "POST", "/api/invitations/{chat}/accept", erin, null, "lunch");
        call(400, "POST", "/api/invitations/{chat}/accept", erin, null, "a%3Ab");
        call(204, "POST", "/api/invitations/{chat}/decline", erin, null, "supper");
        call(404, "POST", "/api/invitations/{chat}/decline", erin, null, "supper");
        call(204, "POST", "/api/blocks", erin, "{\"user\":\"dave\"}");
        call(400, "POST", "/api/blocks", erin, "{\"user\":\"erin\"}");
        call(200, "GET", "/api/blocks", erin, null);
        call(204, "DELETE", "/api/blocks/{user}", erin, null, "dave");
        call(400, "DELETE", "/api/blocks/{user}", erin, null, "a%3Ab");

        call(200, "GET", "/api/presence", alice, null);
        call(200, "GET", "/api/presence?within=PT1M", alice, null);
        call(400, "GET", "/api/presence?within=a-while", alice, null);

        // The stream itself never ends, so only its refusals are checked here; EventStreamTest reads one.
        call(401, "GET", "/api/events", null, null);
        call(406, "GET", "/api/events", alice, null);
        ApiClient.Response badResume = withHeader(alice, "Last-Event-ID", "lunch:soon");
        exchanges.add(new Exchange("GET", "/api/events", "/api/events", 400, badResume));

        call(200, "GET", "/health", null, null);
        call(200, "GET", "/health/ready", null, null);
        api.switchStore(false);
        call(503, "GET", "/health", null, null);
        call(503, "GET", "/health/ready", null, null);
        api.switchStore(true);
        call(200, "GET", "/metrics", null, null);
        call(200, "GET", "/openapi.json", null, null);

        // A stopping server's answers take one of its own too, held stopping by a request in flight.
        stopping();
        keysUnavailable();

        // Dev login off is configuration, so it takes a server of its own.
        try (TestApi locked = TestApi.start(Limits.DEFAULTS, HttpSettings.defaults(false))) {
            exchange(locked.client, 403, "POST", "/api/session", null, "{\"user\":\"alice\"}");
        }
    }

    @AfterAll
    void stop() {
        if (api != null) {
            api.close();
        }
    }

    @Test
    void the_documented_operations_are_exactly_the_routes_the_server_holds() {
        Set<String> routes = new LinkedHashSet<>(api.server.routes());
        Set<String> operations = document.operations();
        Set<String> undocumented = new LinkedHashSet<>(routes);
        undocumented.removeAll(operations);
        Set<String> unserved = new LinkedHashSet<>(operations);
        unserved.removeAll(routes);

        assertThat(routes).as("routes the server holds").isNotEmpty();
        assertThat(undocumented).as("routes the server holds that openapi.json does not describe").isEmpty();
        assertThat(unserved).as("operations openapi.json describes that the server does not hold").isEmpty();
    }

    @Test
    void every_path_parameter_is_declared_by_the_operation_that_has_it() {
        assertThat(document.operations()).anyMatch(route -> TEMPLATE_PARAMETER.matcher(route).find());
        assertThat(document.pathParameterProblems()).isEmpty();
    }

    @Test
    void the_document_is_served_byte_for_byte_and_declares_openapi_3_1() {
        ApiClient.Response served = api.client.get("/openapi.json", null);

        assertThat(served.status()).isEqualTo(200);
        assertThat(served.contentType()).startsWith("application/json");
        assertThat(served.body().getBytes(StandardCharsets.UTF_8)).isEqualTo(document.bytes());
        assertThat(document.root().path("openapi").stringValue("")).matches("3\\.1\\.\\d+");
    }

    @Test
    void each_request_of_the_session_gets_the_answer_it_was_meant_to_provoke() {
        // Otherwise an error case that quietly stops happening would leave its status unchecked.
        assertThat(exchanges).isNotEmpty()
                .filteredOn(exchange -> exchange.response().status() != exchange.provoked())
                .isEmpty();
    }

    @Test
    void the_session_reaches_every_route_the_server_holds() {
        Set<String> reached = new LinkedHashSet<>();
        exchanges.forEach(exchange -> reached.add(exchange.route()));

        assertThat(reached).containsAll(api.server.routes());
    }

    @Test
    void every_answer_of_the_session_is_documented_and_matches_its_schema() {
        List<String> violations = new ArrayList<>();
        exchanges.forEach(exchange -> violations.addAll(
                document.violations(exchange.method(), exchange.template(), exchange.response())));

        assertThat(violations).isEmpty();
    }

    @Test
    void an_operation_needs_a_token_exactly_when_the_document_says_so() {
        List<String> wrong = new ArrayList<>();
        int protectedOperations = 0;
        for (String route : document.operations()) {
            String method = route.substring(0, route.indexOf(' '));
            String template = route.substring(route.indexOf(' ') + 1);
            String path = TEMPLATE_PARAMETER.matcher(template).replaceAll("someone");
            ApiClient.Response answer = api.client.send(method, path, null, null);
            boolean needsToken = document.needsToken(method, template);
            protectedOperations += needsToken ? 1 : 0;
            if (needsToken != (answer.status() == 401)) {
                wrong.add(route + (needsToken ? " needs a token by the document" : " is public by the document")
                        + " but answered " + answer.status() + " without one");
            }
            wrong.addAll(document.violations(method, template, answer));
        }

        assertThat(protectedOperations).isPositive().isLessThan(document.operations().size());
        assertThat(wrong).isEmpty();
    }

    @Test
    void every_post_or_delete_refuses_an_oversized_body_as_the_document_says() {
        // The limit is checked before anything else, so it holds for routes that read no body as well.
        String oversized = "\"" + OVER_THE_LIMIT + "\"";
        List<String> wrong = new ArrayList<>();
        int tried = 0;
        for (String route : document.operations()) {
            String method = route.substring(0, route.indexOf(' '));
            if (!method.equals("POST") && !method.equals("DELETE")) {
                continue;
            }
            String template = route.substring(route.indexOf(' ') + 1);
            String path = TEMPLATE_PARAMETER.matcher(template).replaceAll("someone");
            ApiClient.Response answer = api.client.send(method, path, null, oversized);
            tried++;
            if (answer.status() != 413) {
                wrong.add(route + " answered " + answer.status() + " to an oversized body");
            }
            wrong.addAll(document.violations(method, template, answer));
        }

        assertThat(tried).isPositive();
        assertThat(wrong).isEmpty();
    }

    @Test
    void the_checker_rejects_answers_the_document_does_not_promise() {
        // The session passing proves little unless the checker can say no.
        assertThat(document.violations("GET", "/api/chats", answer(418, "application/json", "[]")))
                .singleElement().asString().contains("not documented");
        assertThat(document.violations("GET", "/api/pending", answer(200, "application/json", "{\"chats\":\"none\"}")))
                .isNotEmpty();
        assertThat(document.violations("GET", "/api/chats/{chat}/messages", answer(200, "application/json",
                "{\"messages\":[{\"id\":1,\"ts\":\"yesterday\",\"sender\":\"alice\",\"message\":\"hi\"}],"
                        + "\"gap\":false,\"firstAvailableId\":1,\"lastId\":1}")))
                .singleElement().asString().contains("/messages/0/ts");
        assertThat(document.violations("GET", "/api/chats", answer(200, "text/html", "<p>chats</p>")))
                .singleElement().asString().contains("content type");
        assertThat(document.violations("POST", "/api/chats/{chat}/read", answer(204, "", "done")))
                .singleElement().asString().contains("without a body");
        assertThat(document.violations("GET", "/api/chats", answer(401, "application/problem+json",
                "{\"type\":\"/problems/unauthorized\",\"title\":\"Not signed in\",\"status\":401,\"detail\":\"no\"}")))
                .singleElement().asString().contains("WWW-Authenticate");
        assertThat(document.violations("GET", "/api/nowhere", answer(200, "application/json", "[]")))
                .singleElement().asString().contains("no such operation");
    }

    /** What a server says while it stops: readiness and every route but the probes' say 503. */
    private void stopping() {
        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        try (TestApi held = TestApi.start(useCases -> GracefulStopTest.withPresenceHeldAt(useCases, entered, release))) {
            String alice = held.client.signIn("alice");
            CompletableFuture<ApiClient.Response> inFlight =
                    CompletableFuture.supplyAsync(() -> held.client.get("/api/presence", alice));
            assertThat(entered.await(10, TimeUnit.SECONDS)).as("the request reached the use case").isTrue();
            CompletableFuture<?> stopping = CompletableFuture.runAsync(() -> held.server.stop(Duration.ofSeconds(30)));
            await().atMost(Duration.ofSeconds(10)).until(() -> held.client.get("/health/ready", null).status() == 503);

            exchange(held.client, 503, "GET", "/health/ready", null, null);
            exchange(held.client, 200, "GET", "/health", null, null);
            exchange(held.client, 503, "GET", "/api/chats", alice, null);
            exchange(held.client, 503, "POST", "/api/session", null, "{\"user\":\"bob\"}");
            exchange(held.client, 503, "GET", "/metrics", null, null);
            exchange(held.client, 503, "GET", "/openapi.json", null, null);
            release.countDown();
            inFlight.join();
            stopping.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted while a server stopped", e);
        }
    }

    /** What a server says when its identity provider's keys cannot be fetched: 503, for every route that takes a token. */
    private void keysUnavailable() {
        JwksServer gone = new JwksServer();
        gone.close();
        try (TestApi cut = TestApi.withTokens(clock -> Tokens.fromJwks(gone.url(), JwksFetching.DEFAULTS,
                IdentityProvider.anyIssuer(), clock))) {
            String token = SignedTokens.sign(new com.nimbusds.jose.jwk.gen.RSAKeyGenerator(2048).keyID("k").generate(),
                    SignedTokens.claims("alice", cut.now.get()).build());
            ApiClient.Response answer = exchange(cut.client, 503, "GET", "/api/chats", token, null);
            assertThat(answer.body()).contains("/problems/auth-unavailable");
        } catch (com.nimbusds.jose.JOSEException e) {
            throw new AssertionError(e);
        }
    }

    private String signIn(String user) {
        return call(200, "POST", "/api/session", null, "{\"user\":\"" + user + "\"}").json().get("token").stringValue();
    }

    private ApiClient.Response call(int provoked, String method, String target, String token, String body,
                                    String... pathValues) {
        return exchange(api.client, provoked, method, target, token, body, pathValues);
    }

    /**
     * @param target the route's template, with a query string when the request has one
     * @param pathValues fill the template's parameters, in order
     */
    private ApiClient.Response exchange(ApiClient client, int provoked, String method, String target, String token,
                                        String body, String... pathValues) {
        String template = target.split("\\?", 2)[0];
        Matcher parameters = TEMPLATE_PARAMETER.matcher(target);
        StringBuilder path = new StringBuilder();
        int next = 0;
        while (parameters.find()) {
            parameters.appendReplacement(path, Matcher.quoteReplacement(pathValues[next++]));
        }
        parameters.appendTail(path);
        if (next != pathValues.length) {
            throw new IllegalArgumentException(target + " has " + next + " path parameters, not " + pathValues.length);
        }
        ApiClient.Response response = client.send(method, path.toString(), token, body);
        exchanges.add(new Exchange(method, template, path.toString(), provoked, response));
        return response;
    }

    /** A stream request with a header the plain client does not send; refused, so answered in full. */
    private ApiClient.Response withHeader(String token, String name, String value) {
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + api.server.port() + "/api/events"))
                .header("Authorization", "Bearer " + token)
                .header("Accept", "text/event-stream")
                .header(name, value)
                .timeout(Duration.ofSeconds(10))
                .build();
        try {
            HttpResponse<String> answer = HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofString());
            return new ApiClient.Response(answer.statusCode(), answer.body(), answer.headers());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static ApiClient.Response answer(int status, String contentType, String body) {
        Map<String, List<String>> headers = contentType.isEmpty() ? Map.of() : Map.of("Content-Type", List.of(contentType));
        return new ApiClient.Response(status, body, HttpHeaders.of(headers, (name, value) -> true));
    }
}
