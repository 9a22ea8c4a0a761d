package dev.pigeonhole.adapter.http;

import dev.pigeonhole.domain.model.consent.AddPolicy;
import dev.pigeonhole.domain.model.consent.ConsentLimits;
import dev.pigeonhole.domain.model.limits.Limits;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.JsonNode;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;
import org.slf4j.LoggerFactory;

import static dev.pigeonhole.adapter.http.ProblemAssertions.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Each way a request can be wrong gets its own status and problem type, so a client can tell
 * them apart without reading prose, and none of them shows the server's insides.
 */
class BadInputTest {

    private static final String ROOM = "/api/chats/room";
    private static final String ID_65 = "x".repeat(65);
    private static final int MAX_BODY = Limits.DEFAULTS.maxBodyLength();

    private static TestApi api;
    private static String alice;
    private static String mallory;

    /**
     * @param caller who sends it: "alice" is a member of the chat "room", "mallory" is not, null sends no token
     */
    record Case(String why, String caller, String method, String path, String body, int status, String type) {

        static Case of(String why, String method, String path, String body, int status, String type) {
            return new Case(why, "alice", method, path, body, status, type);
        }

        @Override
        public String toString() {
            return why;
        }
    }

    /** A batch acknowledge naming {@code count} chats. */
    private static String batchOf(int count) {
        StringBuilder chats = new StringBuilder("{\"chats\":{");
        for (int i = 0; i < count; i++) {
            chats.append(i == 0 ? "" : ",").append("\"c").append(i).append("\":1");
        }
        return chats.append("}}").toString();
    }

    @BeforeAll
    static void startServerWithAChat() {
        api = TestApi.start();
        alice = api.client.signIn("alice");
        mallory = api.client.signIn("mallory");
        api.client.signIn("bob");
        ApiClient.Response created = api.client.post("/api/chats", alice,
                "{\"members\":[\"bob\"],\"message\":\"hi\",\"chatId\":\"room\"}");
        assertThat(created.status()).isEqualTo(201);
    }

    @AfterAll
    static void stopServer() {
        api.close();
    }

    static Stream<Case> cases() {
        return Stream.of(
                // Not JSON, or not the JSON object every body must be.
                Case.of("truncated JSON", "POST", ROOM + "/messages", "{\"message\":\"hi\"", 400, "malformed-json"),
                Case.of("form encoding instead of JSON", "POST", ROOM + "/messages", "message=hi", 400, "malformed-json"),
                Case.of("an empty body", "POST", ROOM + "/messages", "", 400, "malformed-json"),
                Case.of("an empty body to create a chat", "POST", "/api/chats", "", 400, "malformed-json"),
                Case.of("a JSON array", "POST", ROOM + "/messages", "[\"hi\"]", 400, "malformed-json"),
                Case.of("a JSON string", "POST", ROOM + "/messages", "\"hi\"", 400, "malformed-json"),
                Case.of("a JSON number", "POST", ROOM + "/read", "1", 400, "malformed-json"),
                Case.of("JSON null", "POST", ROOM + "/messages", "null", 400, "malformed-json"),
                Case.of("a second value after the object", "POST", ROOM + "/messages", "{\"message\":\"hi\"} {}", 400,
                        "malformed-json"),
                Case.of("a duplicate key", "POST", ROOM + "/messages", "{\"message\":\"a\",\"message\":\"b\"}", 400,
                        "malformed-json"),
                Case.of("JSON nested a thousand deep", "POST", ROOM + "/messages", "[".repeat(1000) + "]".repeat(1000),
                        400, "malformed-json"),
                Case.of("a number of two thousand digits", "POST", ROOM + "/read", "{\"upTo\":" + "9".repeat(2000) + "}",
                        400, "malformed-json"),
                Case.of("a body where an invitation takes an object", "POST", ROOM + "/members", "[]", 400,
                        "malformed-json"),

                // Fields of the wrong type: nothing is coerced.
                Case.of("a number for the message", "POST", ROOM + "/messages", "{\"message\":42}", 400, "wrong-field-type"),
                Case.of("an object for the message", "POST", ROOM + "/messages", "{\"message\":{\"text\":\"hi\"}}", 400,
                        "wrong-field-type"),
                Case.of("a string for upTo", "POST", ROOM + "/read", "{\"upTo\":\"1\"}", 400, "wrong-field-type"),
                Case.of("a fraction for upTo", "POST", ROOM + "/read", "{\"upTo\":1.5}", 400, "wrong-field-type"),
                Case.of("an exponent for upTo", "POST", ROOM + "/read", "{\"upTo\":1e0}", 400, "wrong-field-type"),
                Case.of("an upTo beyond a long", "POST", ROOM + "/read", "{\"upTo\":99999999999999999999}", 400,
                        "wrong-field-type"),
                Case.of("a string for the members", "POST", "/api/chats", "{\"members\":\"bob\",\"message\":\"hi\"}", 400,
                        "wrong-field-type"),
                Case.of("a number among the members", "POST", "/api/chats", "{\"members\":[\"bob\",7],\"message\":\"hi\"}",
                        400, "wrong-field-type"),
                Case.of("a number for the chat id", "POST", "/api/chats",
                        "{\"members\":[\"bob\"],\"message\":\"hi\",\"chatId\":7}", 400, "wrong-field-type"),
                Case.of("a number for the user signing in", "POST", "/api/session", "{\"user\":7}", 400,
                        "wrong-field-type"),

                // Missing and unknown fields.
                Case.of("no message", "POST", ROOM + "/messages", "{}", 400, "missing-field"),
                Case.of("a null message", "POST", ROOM + "/messages", "{\"message\":null}", 400, "missing-field"),
                Case.of("no first message", "POST", "/api/chats", "{\"members\":[\"bob\"]}", 400, "missing-field"),
                Case.of("no members", "POST", "/api/chats", "{\"message\":\"hi\"}", 400, "missing-field"),
                Case.of("no upTo", "POST", ROOM + "/read", "{}", 400, "missing-field"),
                Case.of("no upTo for the mailbox", "POST", "/api/mailbox/read", "{}", 400, "missing-field"),
                Case.of("a null upTo for the mailbox", "POST", "/api/mailbox/read", "{\"upTo\":null}", 400,
                        "missing-field"),
                Case.of("no body to acknowledge the mailbox", "POST", "/api/mailbox/read", "", 400, "malformed-json"),
                Case.of("an upTo in quotes for the mailbox", "POST", "/api/mailbox/read", "{\"upTo\":\"1\"}", 400,
                        "wrong-field-type"),
                Case.of("a fractional upTo for the mailbox", "POST", "/api/mailbox/read", "{\"upTo\":0.5}", 400,
                        "wrong-field-type"),
                Case.of("an extra field to acknowledge the mailbox", "POST", "/api/mailbox/read",
                        "{\"upTo\":0,\"all\":true}", 400, "unknown-field"),
                Case.of("no user to sign in", "POST", "/api/session", "{}", 400, "missing-field"),
                Case.of("a misspelt field", "POST", ROOM + "/messages", "{\"mesage\":\"hi\"}", 400, "unknown-field"),
                Case.of("an extra field", "POST", ROOM + "/messages", "{\"message\":\"hi\",\"extra\":1}", 400,
                        "unknown-field"),
                Case.of("an extra field to acknowledge", "POST", ROOM + "/read", "{\"upTo\":1,\"all\":true}", 400,
                        "unknown-field"),
                Case.of("a field an invitation does not take", "POST", ROOM + "/members", "{\"users\":[\"bob\"]}",
                        400, "unknown-field"),
                Case.of("an invitee that is not a string", "POST", ROOM + "/members", "{\"user\":7}", 400,
                        "wrong-field-type"),
                Case.of("an invitee id with a colon", "POST", ROOM + "/members", "{\"user\":\"a:b\"}", 400,
                        "invalid-id"),
                Case.of("open that is not true or false", "POST", "/api/chats",
                        "{\"members\":[],\"message\":\"hi\",\"open\":\"yes\"}", 400, "wrong-field-type"),

                // Ids in a body that fail validation.
                Case.of("a chat id with a colon", "POST", "/api/chats", create("bob", "a:b"), 400, "invalid-id"),
                Case.of("a chat id with braces", "POST", "/api/chats", create("bob", "{x}"), 400, "invalid-id"),
                Case.of("a chat id of 65 characters", "POST", "/api/chats", create("bob", ID_65), 400, "invalid-id"),
                Case.of("a chat id with a space", "POST", "/api/chats", create("bob", "a b"), 400, "invalid-id"),
                Case.of("an empty chat id", "POST", "/api/chats", create("bob", ""), 400, "invalid-id"),
                Case.of("a member id with a colon", "POST", "/api/chats", create("b:c", null), 400, "invalid-id"),
                Case.of("a user signing in with a space", "POST", "/api/session", "{\"user\":\"a b\"}", 400, "invalid-id"),

                // Ids in a path that fail validation, %-encoded as a client must send them.
                Case.of("a chat id with a colon in the path", "POST", "/api/chats/a%3Ab/messages", message("hi"), 400,
                        "invalid-id"),
                Case.of("a chat id with braces in the path", "GET", "/api/chats/%7Bx%7D/messages", null, 400, "invalid-id"),
                Case.of("a chat id of 65 characters in the path", "POST", "/api/chats/" + ID_65 + "/read", "{\"upTo\":1}",
                        400, "invalid-id"),
                Case.of("a chat id with a space in the path", "POST", "/api/chats/a%20b/members", null, 400, "invalid-id"),
                Case.of("a leaving user id with a colon", "DELETE", ROOM + "/members/a%3Ab", null, 400, "invalid-id"),
                Case.of("a recipient with a space", "POST", "/api/users/a%20b/mailbox", message("hi"), 400, "invalid-id"),
                Case.of("a recipient of 65 characters", "POST", "/api/users/" + ID_65 + "/mailbox", message("hi"), 400,
                        "invalid-id"),

                // Message bodies: blank, or one character over the limit.
                Case.of("a message over the limit", "POST", ROOM + "/messages", message("m".repeat(MAX_BODY + 1)), 400,
                        "invalid-input"),
                Case.of("a first message over the limit", "POST", "/api/chats",
                        "{\"members\":[\"bob\"],\"message\":\"" + "m".repeat(MAX_BODY + 1) + "\"}", 400, "invalid-input"),
                Case.of("a direct message over the limit", "POST", "/api/users/bob/mailbox",
                        message("m".repeat(MAX_BODY + 1)), 400, "invalid-input"),
                Case.of("a blank message", "POST", ROOM + "/messages", message("   "), 400, "invalid-input"),
                Case.of("a message of tabs and newlines", "POST", ROOM + "/messages", message("\\t\\n"), 400,
                        "invalid-input"),
                Case.of("a blank first message", "POST", "/api/chats", "{\"members\":[\"bob\"],\"message\":\" \"}", 400,
                        "invalid-input"),
                Case.of("a blank direct message", "POST", "/api/users/bob/mailbox", message(" "), 400, "invalid-input"),

                // Control characters in a body: C0 but tab and line feed, and DEL.
                Case.of("a message with NUL", "POST", ROOM + "/messages", message("a\\u0000b"), 400, "invalid-input"),
                Case.of("a message with ESC", "POST", ROOM + "/messages", message("\\u001b[2J"), 400, "invalid-input"),
                Case.of("a message with DEL", "POST", ROOM + "/messages", message("a\\u007fb"), 400, "invalid-input"),
                Case.of("a message with a carriage return", "POST", ROOM + "/messages", message("a\\r\\nb"), 400,
                        "invalid-input"),
                Case.of("a direct message with NUL", "POST", "/api/users/bob/mailbox", message("\\u0000"), 400,
                        "invalid-input"),
                Case.of("a direct message with ESC", "POST", "/api/users/bob/mailbox", message("hi \\u001b[31m"), 400,
                        "invalid-input"),
                Case.of("a first message with a bell", "POST", "/api/chats",
                        "{\"members\":[\"bob\"],\"message\":\"ding\\u0007\"}", 400, "invalid-input"),
                Case.of("a negative upTo", "POST", ROOM + "/read", "{\"upTo\":-1}", 400, "invalid-input"),
                Case.of("an upTo beyond the chat's last id", "POST", ROOM + "/read", "{\"upTo\":999999}", 400,
                        "invalid-input"),
                Case.of("a negative upTo for the mailbox", "POST", "/api/mailbox/read", "{\"upTo\":-1}", 400,
                        "invalid-input"),
                Case.of("an upTo beyond the mailbox's last id", "POST", "/api/mailbox/read", "{\"upTo\":1}", 400,
                        "invalid-input"),

                // Acknowledging many chats at once: the same checks per chat, and the batch's own.
                Case.of("no chats to acknowledge", "POST", "/api/read", "{}", 400, "missing-field"),
                Case.of("an array of chats to acknowledge", "POST", "/api/read", "{\"chats\":[\"room\"]}", 400,
                        "wrong-field-type"),
                Case.of("an upTo in quotes in a batch", "POST", "/api/read", "{\"chats\":{\"room\":\"1\"}}", 400,
                        "wrong-field-type"),
                Case.of("a fractional upTo in a batch", "POST", "/api/read", "{\"chats\":{\"room\":0.5}}", 400,
                        "wrong-field-type"),
                Case.of("a chat named twice in a batch", "POST", "/api/read", "{\"chats\":{\"room\":1,\"room\":1}}",
                        400, "malformed-json"),
                Case.of("an extra field in a batch", "POST", "/api/read", "{\"chats\":{\"room\":1},\"all\":true}", 400,
                        "unknown-field"),
                Case.of("an empty batch", "POST", "/api/read", "{\"chats\":{}}", 400, "invalid-input"),
                Case.of("a batch of a thousand and one chats", "POST", "/api/read", batchOf(1_001), 400,
                        "invalid-input"),
                Case.of("a chat id with a colon in a batch", "POST", "/api/read", "{\"chats\":{\"room\":1,\"a:b\":1}}",
                        400, "invalid-id"),
                Case.of("a negative upTo in a batch", "POST", "/api/read", "{\"chats\":{\"room\":-1}}", 400,
                        "invalid-input"),
                Case.of("an upTo beyond a chat's last id in a batch", "POST", "/api/read",
                        "{\"chats\":{\"room\":999999}}", 400, "invalid-input"),
                Case.of("an unknown chat in a batch", "POST", "/api/read", "{\"chats\":{\"room\":1,\"nowhere\":1}}",
                        404, "unknown-chat"),
                new Case("a batch with a private chat one is not in", "mallory", "POST", "/api/read",
                        "{\"chats\":{\"room\":1}}", 404, "unknown-chat"),

                // Chats that are not there, or not the caller's.
                Case.of("sending to an unknown chat", "POST", "/api/chats/nowhere/messages", message("hi"), 404,
                        "unknown-chat"),
                Case.of("reading an unknown chat", "GET", "/api/chats/nowhere/messages", null, 404, "unknown-chat"),
                Case.of("acknowledging in an unknown chat", "POST", "/api/chats/nowhere/read", "{\"upTo\":1}", 404,
                        "unknown-chat"),
                Case.of("joining an unknown chat", "POST", "/api/chats/nowhere/members", null, 404, "unknown-chat"),
                Case.of("leaving an unknown chat", "DELETE", "/api/chats/nowhere/members/alice", null, 404,
                        "unknown-chat"),
                // A private chat one is not in answers as an unknown one: its existence is not told.
                new Case("sending to a private chat one is not in", "mallory", "POST", ROOM + "/messages", message("hi"),
                        404, "unknown-chat"),
                new Case("reading a private chat one is not in", "mallory", "GET", ROOM + "/messages", null, 404,
                        "unknown-chat"),
                new Case("joining a private chat one is not in", "mallory", "POST", ROOM + "/members", null, 404,
                        "unknown-chat"),

                // Consent: whom to block and which add policy, each checked once, as a chat's fields are.
                Case.of("an empty body to block", "POST", "/api/blocks", "", 400, "malformed-json"),
                Case.of("no user to block", "POST", "/api/blocks", "{}", 400, "missing-field"),
                Case.of("a null user to block", "POST", "/api/blocks", "{\"user\":null}", 400, "missing-field"),
                Case.of("a number for the user to block", "POST", "/api/blocks", "{\"user\":7}", 400,
                        "wrong-field-type"),
                Case.of("a list of users to block", "POST", "/api/blocks", "{\"user\":[\"bob\"]}", 400,
                        "wrong-field-type"),
                Case.of("an extra field to block", "POST", "/api/blocks", "{\"user\":\"bob\",\"quietly\":true}", 400,
                        "unknown-field"),
                Case.of("a user to block with a space", "POST", "/api/blocks", "{\"user\":\"a b\"}", 400, "invalid-id"),
                Case.of("a user to block of 65 characters", "POST", "/api/blocks", "{\"user\":\"" + ID_65 + "\"}", 400,
                        "invalid-id"),
                Case.of("blocking oneself", "POST", "/api/blocks", "{\"user\":\"alice\"}", 400, "invalid-input"),
                Case.of("a user to unblock with a colon", "DELETE", "/api/blocks/a%3Ab", null, 400, "invalid-id"),
                Case.of("unblocking oneself", "DELETE", "/api/blocks/alice", null, 400, "invalid-input"),
                Case.of("an invitation to a chat id with a colon", "POST", "/api/invitations/a%3Ab/accept", null, 400,
                        "invalid-id"),
                Case.of("declining an invitation to a chat id of 65 characters", "POST",
                        "/api/invitations/" + ID_65 + "/decline", null, 400, "invalid-id"),
                Case.of("accepting an invitation never made", "POST", "/api/invitations/room/accept", null, 404,
                        "no-invitation"),
                Case.of("declining an invitation never made", "POST", "/api/invitations/nowhere/decline", null, 404,
                        "no-invitation"),
                Case.of("an empty body for the settings", "PUT", "/api/settings", "", 400, "malformed-json"),
                Case.of("no add policy", "PUT", "/api/settings", "{}", 400, "missing-field"),
                Case.of("a boolean for the add policy", "PUT", "/api/settings", "{\"addPolicy\":true}", 400,
                        "wrong-field-type"),
                Case.of("an add policy of nobody", "PUT", "/api/settings", "{\"addPolicy\":\"nobody\"}", 400,
                        "invalid-input"),
                Case.of("an extra setting", "PUT", "/api/settings", "{\"addPolicy\":\"anyone\",\"theme\":\"dark\"}",
                        400, "unknown-field"),

                // Query parameters that are there but unreadable or out of range.
                Case.of("after=x", "GET", ROOM + "/messages?after=x", null, 400, "invalid-query-parameter"),
                Case.of("after=-1", "GET", ROOM + "/messages?after=-1", null, 400, "invalid-input"),
                Case.of("limit=0", "GET", ROOM + "/messages?limit=0", null, 400, "invalid-input"),
                Case.of("limit=abc", "GET", ROOM + "/messages?limit=abc", null, 400, "invalid-query-parameter"),
                Case.of("limit=1001", "GET", ROOM + "/messages?limit=1001", null, 400, "invalid-input"),
                Case.of("limit beyond an int", "GET", ROOM + "/messages?limit=99999999999", null, 400,
                        "invalid-query-parameter"),
                Case.of("limit=1.5", "GET", ROOM + "/messages?limit=1.5", null, 400, "invalid-query-parameter"),
                Case.of("pending limit=0", "GET", "/api/pending?limit=0", null, 400, "invalid-input"),
                Case.of("pending limit=x", "GET", "/api/pending?limit=x", null, 400, "invalid-query-parameter"),
                Case.of("max=0", "GET", "/api/mailbox?max=0", null, 400, "invalid-input"),
                Case.of("max=-1", "GET", "/api/mailbox?max=-1", null, 400, "invalid-input"),
                Case.of("max=abc", "GET", "/api/mailbox?max=abc", null, 400, "invalid-query-parameter"),
                Case.of("max=1001", "GET", "/api/mailbox?max=1001", null, 400, "invalid-input"),
                Case.of("within=xyz", "GET", "/api/presence?within=xyz", null, 400, "invalid-query-parameter"),
                Case.of("within=15 without a unit", "GET", "/api/presence?within=15", null, 400,
                        "invalid-query-parameter"),
                Case.of("within=P2D", "GET", "/api/presence?within=P2D", null, 400, "invalid-input"),
                Case.of("within=PT0S", "GET", "/api/presence?within=PT0S", null, 400, "invalid-input"),
                Case.of("within=-PT1M", "GET", "/api/presence?within=-PT1M", null, 400, "invalid-input"),

                // Routes and methods the API does not have.
                Case.of("an unknown route", "GET", "/api/nothing", null, 404, "no-such-route"),
                Case.of("the bare /api", "GET", "/api", null, 404, "no-such-route"),
                Case.of("a path under a message route", "POST", ROOM + "/messages/1", message("hi"), 404, "no-such-route"),
                new Case("an unknown route without a token", null, "GET", "/api/nothing", null, 404, "no-such-route"),
                Case.of("PUT on the chats", "PUT", "/api/chats", "{}", 405, "method-not-allowed"),
                Case.of("DELETE on pending", "DELETE", "/api/pending", null, 405, "method-not-allowed"),
                Case.of("POST on the mailbox", "POST", "/api/mailbox", null, 405, "method-not-allowed"),
                Case.of("GET on the mailbox's acknowledgement", "GET", "/api/mailbox/read", null, 405,
                        "method-not-allowed"),
                Case.of("the take that reading replaced", "POST", "/api/mailbox/take", null, 404, "no-such-route"),
                Case.of("PATCH on messages", "PATCH", ROOM + "/messages", message("hi"), 405, "method-not-allowed"),
                Case.of("DELETE on the session", "DELETE", "/api/session", null, 405, "method-not-allowed"),
                Case.of("GET on the members", "GET", ROOM + "/members", null, 405, "method-not-allowed"),
                Case.of("POST on the event stream", "POST", "/api/events", null, 405, "method-not-allowed"),
                Case.of("DELETE on the invitations", "DELETE", "/api/invitations", null, 405, "method-not-allowed"),
                Case.of("GET on an accept", "GET", "/api/invitations/room/accept", null, 405, "method-not-allowed"),
                Case.of("a path under an invitation", "POST", "/api/invitations/room", null, 404, "no-such-route"),
                Case.of("PUT on the blocks", "PUT", "/api/blocks", "{\"user\":\"bob\"}", 405, "method-not-allowed"),
                Case.of("POST on the settings", "POST", "/api/settings", "{\"addPolicy\":\"anyone\"}", 405,
                        "method-not-allowed"),
                Case.of("the event stream to a client that does not accept one", "GET", "/api/events", null, 406,
                        "not-acceptable"),

                // Refused by Jetty before any route runs.
                Case.of("a path that is not UTF-8 once decoded", "GET", "/api/chats/%FF/messages", null, 400,
                        "bad-request"),
                Case.of("a path longer than the server reads", "GET", "/api/chats/" + "x".repeat(10_000) + "/messages",
                        null, 414, "uri-too-long"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void each_bad_request_gets_its_own_status_and_problem_type(Case bad) {
        String token = bad.caller() == null ? null : bad.caller().equals("mallory") ? mallory : alice;

        ApiClient.Response response = api.client.send(bad.method(), bad.path(), token, bad.body());

        assertProblem(response, bad.status(), bad.type());
    }

    static Stream<String> malformedLastEventIds() {
        return Stream.of("lunch", "lunch:", ":1", "lunch:x", "lunch:-1", "lunch:0", "lunch:1,lunch:2", "lunch:1,",
                "lunch:1;team:2", "not a chat:1", "a{b}:1", "lunch:99999999999999999999", "a:1,".repeat(17) + "b:1",
                "x".repeat(EventIds.MAX_LENGTH + 1));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("malformedLastEventIds")
    void a_malformed_last_event_id_is_refused_with_a_problem_before_any_stream(String lastEventId) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + api.server.port() + "/api/events"))
                .header("Authorization", "Bearer " + alice)
                .header("Accept", "text/event-stream")
                .header("Last-Event-ID", lastEventId)
                .timeout(Duration.ofSeconds(10))
                .build();
        HttpResponse<String> answer = HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofString());

        JsonNode problem = assertProblem(new ApiClient.Response(answer.statusCode(), answer.body(), answer.headers()), 400,
                "invalid-last-event-id");
        assertThat(problem.get("detail").stringValue()).contains("Last-Event-ID");
    }

    @Test
    void headers_over_the_servers_limit_are_refused_with_a_problem() {
        ApiClient.Response response = api.client.get("/api/chats", "t".repeat(20_000));

        assertProblem(response, 431, "headers-too-large");
    }

    @Test
    void a_body_that_is_not_utf_8_is_malformed_json() {
        byte[] latin1 = "{\"message\":\"caf\u00e9\"}".getBytes(StandardCharsets.ISO_8859_1);

        ApiClient.Response response = api.client.sendBytes("POST", ROOM + "/messages", alice, latin1);

        assertProblem(response, 400, "malformed-json");
    }

    @Test
    void a_body_with_a_control_character_is_refused_naming_it_and_its_position_and_nothing_is_stored() {
        String bob = api.client.signIn("bob");
        String roomBefore = api.client.get(ROOM + "/messages", alice).body();
        String mailboxBefore = api.client.get("/api/mailbox", bob).body();

        for (String control : List.of("\\u0000", "\\u001b")) {
            ApiClient.Response sent = api.client.post(ROOM + "/messages", alice, message("0123456789a" + control + "z"));
            ApiClient.Response delivered = api.client.post("/api/users/bob/mailbox", alice, message("12345" + control));

            String code = control.substring(2).toUpperCase(Locale.ROOT);
            assertThat(assertProblem(sent, 400, "invalid-input").get("detail").stringValue()).isEqualTo(
                    "message has a control character (U+" + code + ") at position 12; only tab and line feed are allowed");
            assertThat(assertProblem(delivered, 400, "invalid-input").get("detail").stringValue())
                    .contains("(U+" + code + ") at position 6");
        }

        assertThat(api.client.get(ROOM + "/messages", alice).body()).isEqualTo(roomBefore);
        assertThat(api.client.get("/api/mailbox", bob).body()).isEqualTo(mailboxBefore);
    }

    @Test
    void tab_and_line_feed_are_taken_in_a_body() {
        ApiClient.Response sent = api.client.post(ROOM + "/messages", alice, message("one\\ttwo\\nthree"));

        assertThat(sent.status()).as(sent.body()).isEqualTo(201);
        assertThat(sent.json().get("message").stringValue()).isEqualTo("one\ttwo\nthree");
    }

    @Test
    void a_message_exactly_at_the_limit_is_taken() {
        // The other side of "over the limit": the limit itself is allowed, so that test is about the limit.
        ApiClient.Response response = api.client.post(ROOM + "/messages", alice, message("m".repeat(MAX_BODY)));

        assertThat(response.status()).as(response.body()).isEqualTo(201);
    }

    @Test
    void a_chat_id_that_is_taken_is_a_conflict() {
        String create = "{\"members\":[\"bob\"],\"message\":\"hi\",\"chatId\":\"taken\"}";
        assertThat(api.client.post("/api/chats", alice, create).status()).isEqualTo(201);

        ApiClient.Response again = api.client.post("/api/chats", mallory, create);

        assertProblem(again, 409, "chat-exists");
    }

    @Test
    void a_full_mailbox_refuses_the_next_message() {
        try (TestApi small = TestApi.start(Limits.DEFAULTS.withMailboxCapacity(2), HttpSettings.defaults(true))) {
            String sender = small.client.signIn("alice");
            // A stranger is refused long before the mailbox is full, and told nothing of it (ConsentTest);
            // only someone sharing a chat with the owner ever meets a full one.
            assertThat(small.client.post("/api/chats", sender, create("bob", null)).status()).isEqualTo(201);
            for (int i = 1; i <= 2; i++) {
                assertThat(small.client.post("/api/users/bob/mailbox", sender, message("note " + i)).status())
                        .isEqualTo(201);
            }

            ApiClient.Response third = small.client.post("/api/users/bob/mailbox", sender, message("note 3"));

            assertProblem(third, 409, "mailbox-full");
        }
    }

    @Test
    void an_acknowledgement_past_the_mailbox_s_last_id_says_so_and_removes_nothing() {
        String owner = api.client.signIn("dora");
        String sender = api.client.signIn("erin");
        for (int i = 1; i <= 2; i++) {
            assertThat(api.client.post("/api/users/dora/mailbox", sender, message("note " + i)).status()).isEqualTo(201);
        }
        String before = api.client.get("/api/mailbox", owner).body();

        ApiClient.Response refused = api.client.post("/api/mailbox/read", owner, "{\"upTo\":3}");

        JsonNode problem = assertProblem(refused, 400, "invalid-input");
        assertThat(problem.get("detail").stringValue()).isEqualTo(
                "cannot acknowledge up to 3 in the mailbox of dora: its ids run from 1 to its last id, 2");
        assertThat(api.client.get("/api/mailbox", owner).body()).isEqualTo(before).contains("note 1", "note 2");
    }

    @Test
    void an_unknown_add_policy_is_refused_naming_the_allowed_ones() {
        ApiClient.Response response = api.client.send("PUT", "/api/settings", alice, "{\"addPolicy\":\"friends\"}");

        JsonNode problem = assertProblem(response, 400, "invalid-input");
        assertThat(problem.get("detail").stringValue()).contains("anyone", "co-members", "friends");
    }

    @Test
    void blocking_past_the_bound_is_refused_and_blocks_no_one_more() {
        ConsentLimits twoBlocks = new ConsentLimits(AddPolicy.CO_MEMBERS, 100, Duration.ofDays(7), 2, 1_000);
        try (TestApi small = TestApi.withConsent(TestApi.LIMITS, twoBlocks)) {
            String owner = small.client.signIn("alice");
            for (String user : new String[] {"bob", "carol"}) {
                assertThat(small.client.post("/api/blocks", owner, "{\"user\":\"" + user + "\"}").status()).isEqualTo(204);
            }

            ApiClient.Response third = small.client.post("/api/blocks", owner, "{\"user\":\"dave\"}");
            ApiClient.Response again = small.client.post("/api/blocks", owner, "{\"user\":\"bob\"}");

            JsonNode problem = assertProblem(third, 400, "invalid-input");
            assertThat(problem.get("detail").stringValue()).contains("2");
            assertThat(again.status()).as("blocking someone already blocked is no new block").isEqualTo(204);
            assertThat(small.client.get("/api/blocks", owner).json().get("blocked").values())
                    .extracting(JsonNode::stringValue).containsExactly("bob", "carol");
        }
    }

    @Test
    void a_full_chat_refuses_another_member() {
        try (TestApi small = TestApi.start(Limits.DEFAULTS.withMaxMembers(2), HttpSettings.defaults(true))) {
            String owner = small.client.signIn("alice");
            assertThat(small.client.post("/api/chats", owner, create("bob", "pair")).status()).isEqualTo(201);

            ApiClient.Response join = small.client.post("/api/chats/pair/members", owner, "{\"user\":\"carol\"}");
            ApiClient.Response tooMany = small.client.post("/api/chats", owner,
                    "{\"members\":[\"bob\",\"carol\"],\"message\":\"hi\"}");

            assertProblem(join, 409, "chat-full");
            assertProblem(tooMany, 400, "invalid-input");
        }
    }

    @Test
    void a_body_over_64_kib_with_its_length_declared_is_too_large() {
        ApiClient.Response response = api.client.sendBytes("POST", ROOM + "/messages", alice,
                messageOfBytes(HttpSettings.DEFAULT_MAX_REQUEST_BYTES + 1));

        JsonNode problem = assertProblem(response, 413, "request-too-large");
        assertThat(problem.get("detail").stringValue()).contains(Integer.toString(HttpSettings.DEFAULT_MAX_REQUEST_BYTES));
    }

    @Test
    void a_body_of_exactly_64_kib_is_read() {
        // Read and judged on its content (a message far over 4 096 characters), not refused for its size.
        ApiClient.Response response = api.client.sendBytes("POST", ROOM + "/messages", alice,
                messageOfBytes(HttpSettings.DEFAULT_MAX_REQUEST_BYTES));

        assertProblem(response, 400, "invalid-input");
    }

    @Test
    void a_chunked_body_over_64_kib_is_too_large() throws Exception {
        ApiClient.Response response = sendChunked(messageOfBytes(HttpSettings.DEFAULT_MAX_REQUEST_BYTES + 1));

        JsonNode problem = assertProblem(response, 413, "request-too-large");
        // A declared length would be named in the detail; its absence shows the body really came chunked.
        assertThat(problem.get("detail").stringValue()).doesNotContain(
                Integer.toString(HttpSettings.DEFAULT_MAX_REQUEST_BYTES + 1));
    }

    @Test
    void a_small_chunked_body_is_read() {
        // Without this, the 413 above could come from refusing chunked bodies altogether.
        ApiClient.Response response = sendChunked(message("chunked").getBytes(StandardCharsets.UTF_8));

        assertThat(response.status()).as(response.body()).isEqualTo(201);
    }

    /** A body broken in its framing; a truncated one ends where the client hangs up its side. */
    record BrokenBody(String why, String framingAndBody, boolean hangUp) {

        @Override
        public String toString() {
            return why;
        }
    }

    static Stream<BrokenBody> brokenBodies() {
        return Stream.of(
                new BrokenBody("a chunk size past any long", "Transfer-Encoding: chunked\r\n\r\nFFFFFFFFFFFFFFFFFF\r\n",
                        false),
                new BrokenBody("a chunk size that is not hex",
                        "Transfer-Encoding: chunked\r\n\r\nnot-hex\r\n{}\r\n0\r\n\r\n", false),
                new BrokenBody("fewer bytes than the Content-Length", "Content-Length: 100\r\n\r\n{\"user\":\"al", true),
                new BrokenBody("a chunk cut short", "Transfer-Encoding: chunked\r\n\r\n40\r\n{\"user\":", true));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("brokenBodies")
    void a_malformed_or_truncated_body_is_a_bad_request_logged_as_one_warning(BrokenBody broken) throws Exception {
        Logger root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        CapturedLines log = new CapturedLines();
        log.start();
        root.addAppender(log);
        ApiClient.Response response;
        try {
            // No sign-in needed: anyone on the network can send this.
            response = sendRaw("POST /api/session HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                    + broken.framingAndBody(), broken.hangUp());
        } finally {
            root.detachAppender(log);
        }

        assertProblem(response, 400, "bad-request");
        assertThat(log.list).as("what the server logged").noneMatch(event -> event.getLevel().isGreaterOrEqual(Level.ERROR))
                .noneMatch(event -> event.getThrowableProxy() != null)
                .anyMatch(event -> event.getLevel() == Level.WARN);
        // The warning is written inside the request, so it carries the request's id, as its answer does.
        String id = response.header(RequestIds.HEADER).orElseThrow();
        assertThat(log.list).filteredOn(event -> event.getLevel() == Level.WARN)
                .allMatch(event -> id.equals(event.getMDCPropertyMap().get(AccessLog.MDC_KEY)), "carries " + id);
    }

    /** What a hostile client might put in a request id to reach a log line or another header: never echoed. */
    static Stream<String> hostileRequestIds() {
        return Stream.of("x".repeat(RequestIds.MAX_LENGTH + 1), "two words", "tab\there", "quote\"d", "line%0d%0abreak",
                "\u00e9t\u00e9", "<script>", "a\u0000b", "{\"level\":\"ERROR\"}");
    }

    @ParameterizedTest
    @MethodSource("hostileRequestIds")
    void a_request_id_that_is_not_plainly_an_id_is_replaced_not_echoed(String hostile) throws Exception {
        ApiClient.Response response = sendRaw("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
                + RequestIds.HEADER + ": " + hostile + "\r\n\r\n", false);

        // A byte Jetty does not take in a header at all (NUL) is refused before the server sees the request.
        if (response.status() == 400) {
            assertThat(response.header(RequestIds.HEADER)).as("Jetty's refusal").isEmpty();
        } else {
            assertThat(response.status()).isEqualTo(200);
            assertThat(response.header(RequestIds.HEADER)).get().asString().matches("[0-9a-f]{16}");
        }
        assertThat(response.body()).doesNotContain(hostile);
    }

    @Test
    void a_line_feed_in_a_request_id_ends_the_header_and_nothing_after_it_is_echoed() throws Exception {
        ApiClient.Response response = sendRaw("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
                + RequestIds.HEADER + ": abc\nSet-Cookie: stolen=1\r\n\r\n", false);

        assertThat(response.status()).isEqualTo(200);
        assertThat(response.headers().map().keySet()).noneMatch(name -> name.equalsIgnoreCase("Set-Cookie"));
        assertThat(response.headers().allValues(RequestIds.HEADER)).containsExactly("abc");
    }

    /**
     * The request as these bytes, on a socket of its own, the answer read to the server's end of
     * it. {@code hangUp} shuts the sending side at once, so a body shorter than it claims ends there.
     */
    private static ApiClient.Response sendRaw(String request, boolean hangUp) throws IOException {
        try (Socket socket = new Socket()) {
            socket.setSoTimeout(10_000);
            socket.connect(new InetSocketAddress("127.0.0.1", api.server.port()), 5_000);
            OutputStream out = socket.getOutputStream();
            out.write(request.getBytes(StandardCharsets.UTF_8));
            out.flush();
            if (hangUp) {
                socket.shutdownOutput();
            }
            return parse(socket.getInputStream().readAllBytes());
        }
    }

    /** An HTTP/1.1 answer, its body as sent or de-chunked. */
    private static ApiClient.Response parse(byte[] raw) {
        String text = new String(raw, StandardCharsets.ISO_8859_1);
        int end = text.indexOf("\r\n\r\n");
        assertThat(end).as("a whole response head in %s", text).isPositive();
        String[] lines = text.substring(0, end).split("\r\n");
        Map<String, List<String>> headers = new HashMap<>();
        for (int i = 1; i < lines.length; i++) {
            int colon = lines[i].indexOf(':');
            headers.put(lines[i].substring(0, colon).strip(), List.of(lines[i].substring(colon + 1).strip()));
        }
        String body = text.substring(end + 4);
        if (headers.keySet().stream().anyMatch(name -> name.equalsIgnoreCase("Transfer-Encoding"))) {
            ByteArrayOutputStream whole = new ByteArrayOutputStream();
            int at = 0;
            while (true) {
                int lineEnd = body.indexOf("\r\n", at);
                int size = Integer.parseInt(body.substring(at, lineEnd).strip(), 16);
                if (size == 0) {
                    break;
                }
                whole.writeBytes(body.substring(lineEnd + 2, lineEnd + 2 + size).getBytes(StandardCharsets.ISO_8859_1));
                at = lineEnd + 2 + size + 2;
            }
            body = whole.toString(StandardCharsets.ISO_8859_1);
        }
        int status = Integer.parseInt(lines[0].split(" ")[1]);
        return new ApiClient.Response(status, new String(body.getBytes(StandardCharsets.ISO_8859_1), StandardCharsets.UTF_8),
                java.net.http.HttpHeaders.of(headers, (name, value) -> true));
    }

    /** Sent with no Content-Length: a body from a stream of unknown length goes out chunked over HTTP/1.1. */
    private static ApiClient.Response sendChunked(byte[] body) {
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + api.server.port() + ROOM + "/messages"))
                .header("Authorization", "Bearer " + alice)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(body)))
                .build();
        try {
            HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
            return new ApiClient.Response(response.statusCode(), response.body(), response.headers());
        } catch (IOException e) {
            throw new AssertionError("the server dropped a chunked request instead of answering it", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    /** {"message":"mmm…"} of exactly this many bytes. */
    private static byte[] messageOfBytes(int size) {
        String frame = message("");
        return message("m".repeat(size - frame.length())).getBytes(StandardCharsets.UTF_8);
    }

    private static String message(String text) {
        return "{\"message\":\"" + text + "\"}";
    }

    private static String create(String member, String chatId) {
        return "{\"members\":[\"" + member + "\"],\"message\":\"hi\"" + (chatId == null ? "" : ",\"chatId\":\"" + chatId + "\"")
                + "}";
    }
}
