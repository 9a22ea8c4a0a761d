package dev.pigeonhole.adapter.http;

import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import dev.pigeonhole.domain.model.UserId;
import dev.pigeonhole.domain.model.limits.Limits;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.JsonNode;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;

import static dev.pigeonhole.adapter.http.ProblemAssertions.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Who may do what, route by route: nobody without a valid token, nobody in a chat they are not a
 * member of, nobody bringing anyone into a chat they are not in, nobody into a private chat by
 * themselves, nobody leaving on someone else's behalf, nobody answering someone else's invitation
 * or touching someone else's blocks and settings, and a refused request neither reveals nor
 * changes anything, not even that a private chat exists. One server for the class; every test
 * works on its own users and chat.
 */
class AuthorizationMatrixTest {

    /** Every /api route but dev login, in the shape a member would send it successfully. */
    enum Route {
        CALLER("GET", "/api/session", null, 200),
        CREATE_CHAT("POST", "/api/chats", "{\"members\":[\"{member}\"],\"message\":\"hello\"}", 201),
        LIST_CHATS("GET", "/api/chats", null, 200),
        SEND("POST", "/api/chats/{chat}/messages", "{\"message\":\"hello\"}", 201),
        READ("GET", "/api/chats/{chat}/messages", null, 200),
        PENDING("GET", "/api/pending", null, 200),
        ACKNOWLEDGE("POST", "/api/chats/{chat}/read", "{\"upTo\":1}", 204),
        ACKNOWLEDGE_MANY("POST", "/api/read", "{\"chats\":{\"{chat}\":1}}", 204),
        INVITE("POST", "/api/chats/{chat}/members", "{\"user\":\"{newcomer}\"}", 204),
        JOIN_YOURSELF("POST", "/api/chats/{chat}/members", null, 204),
        LEAVE("DELETE", "/api/chats/{chat}/members/{self}", null, 204),
        DELIVER("POST", "/api/users/{member}/mailbox", "{\"message\":\"hello\"}", 201),
        READ_MAILBOX("GET", "/api/mailbox", null, 200),
        ACKNOWLEDGE_MAILBOX("POST", "/api/mailbox/read", "{\"upTo\":1}", 204),
        LIST_INVITATIONS("GET", "/api/invitations", null, 200),
        ACCEPT_INVITATION("POST", "/api/invitations/{invited}/accept", null, 204),
        DECLINE_INVITATION("POST", "/api/invitations/{invited}/decline", null, 204),
        LIST_BLOCKS("GET", "/api/blocks", null, 200),
        BLOCK("POST", "/api/blocks", "{\"user\":\"{newcomer}\"}", 204),
        UNBLOCK("DELETE", "/api/blocks/{member}", null, 204),
        SETTINGS("GET", "/api/settings", null, 200),
        CHOOSE_SETTINGS("PUT", "/api/settings", "{\"addPolicy\":\"anyone\"}", 204),
        PRESENCE("GET", "/api/presence", null, 200),
        EVENTS("GET", "/api/events", null, 200);

        final String method;
        final String template;
        final String body;
        final int success;

        Route(String method, String template, String body, int success) {
            this.method = method;
            this.template = template;
            this.body = body;
            this.success = success;
        }

        @Override
        public String toString() {
            return method + " " + template;
        }
    }

    /** Credentials that must not get anyone in. */
    enum BadCredential {
        NONE, MALFORMED, OTHER_SECRET, EXPIRED, ALG_NONE
    }

    private static final String MARKER = "classified";
    private static final AtomicInteger RUN = new AtomicInteger();
    private static TestApi api;

    private String owner;
    private String member;
    private String stranger;
    private String newcomer;
    private String inviter;
    private String chat;
    /** A chat the owner is invited to and not yet a member of. */
    private String invited;
    private List<String> secrets;

    @BeforeAll
    static void startServer() {
        api = TestApi.start();
    }

    @AfterAll
    static void stopServer() {
        api.close();
    }

    /** Fresh users and a fresh chat per test, so that tests sharing the server cannot see each other. */
    @BeforeEach
    void seedAChatWithHistoryAndAMailbox() {
        int run = RUN.incrementAndGet();
        owner = "owner-" + run;
        member = "member-" + run;
        stranger = "stranger-" + run;
        newcomer = "newcomer-" + run;
        inviter = "inviter-" + run;
        chat = "chat-" + run;
        invited = "invited-" + run;
        secrets = List.of(MARKER + " first " + run, MARKER + " second " + run, MARKER + " reply " + run,
                MARKER + " direct " + run, MARKER + " invitation " + run);
        String ownerToken = api.client.signIn(owner);
        String memberToken = api.client.signIn(member);
        expect(201, api.client.post("/api/chats", ownerToken, "{\"members\":[\"" + member + "\"],\"message\":\""
                + secrets.get(0) + "\",\"chatId\":\"" + chat + "\"}"));
        expect(201, api.client.post("/api/chats/" + chat + "/messages", ownerToken, message(secrets.get(1))));
        expect(201, api.client.post("/api/chats/" + chat + "/messages", memberToken, message(secrets.get(2))));
        expect(201, api.client.post("/api/users/" + owner + "/mailbox", memberToken, message(secrets.get(3))));
        // The server adds directly by default here; the owner alone asks strangers to invite it.
        expect(204, api.client.send("PUT", "/api/settings", ownerToken, "{\"addPolicy\":\"co-members\"}"));
        expect(201, api.client.post("/api/chats", api.client.signIn(inviter), "{\"members\":[\"" + owner
                + "\"],\"message\":\"" + secrets.get(4) + "\",\"chatId\":\"" + invited + "\"}"));
    }

    static Stream<Arguments> routesWithBadCredentials() {
        return Stream.of(Route.values())
                .flatMap(route -> Stream.of(BadCredential.values()).map(credential -> Arguments.of(route, credential)));
    }

    @ParameterizedTest(name = "{0} with {1}")
    @MethodSource("routesWithBadCredentials")
    void a_request_without_valid_credentials_is_refused_with_401_and_changes_nothing(Route route,
                                                                                    BadCredential credential) {
        String before = snapshot();
        // Built after the snapshot: an expired token moves the clock, and the snapshot must not care.
        String token = token(credential, owner);

        ApiClient.Response response = api.client.send(route.method, path(route, owner), token, body(route));

        JsonNode problem = assertProblem(response, 401, "unauthorized");
        assertThat(response.header("WWW-Authenticate")).hasValueSatisfying(value -> assertThat(value).startsWith("Bearer"));
        // Refused for the reason this case is about, not by accident for another one.
        assertThat(problem.get("detail").stringValue()).containsIgnoringCase(reasonOf(credential));
        assertNothingLeaks(response);
        assertThat(snapshot()).isEqualTo(before);
    }

    @Test
    void when_the_identity_providers_keys_cannot_be_had_every_route_says_503_and_changes_nothing() throws Exception {
        JwksServer gone = new JwksServer();
        gone.close();
        RSAKey key = new RSAKeyGenerator(2048).keyID("k").generate();
        try (TestApi cut = TestApi.withTokens(clock -> Tokens.fromJwks(gone.url(), JwksFetching.DEFAULTS,
                IdentityProvider.anyIssuer(), clock))) {
            String token = SignedTokens.sign(key, SignedTokens.claims(owner, cut.now.get()).build());
            for (Route route : Route.values()) {
                ApiClient.Response response = cut.client.send(route.method, path(route, owner), token, body(route));

                // Not the client's fault: its token may be good, so no 401 that would send it to sign in again.
                assertProblem(response, 503, "auth-unavailable");
                assertThat(response.header("Retry-After")).as("%s", route).isPresent();
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("readRoutes")
    void a_head_request_without_a_token_is_refused_like_its_get(Route route) {
        ApiClient.Response response = api.client.send("HEAD", path(route, owner), null, null);

        assertThat(response.status()).isEqualTo(401);
        assertThat(response.header("WWW-Authenticate")).isPresent();
        assertThat(response.contentType()).startsWith("application/problem+json");
        assertThat(response.body()).isEmpty();
    }

    static Stream<Route> readRoutes() {
        return Stream.of(Route.values()).filter(route -> route.method.equals("GET"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("chatRoutesRefusedToStrangers")
    void a_non_member_cannot_read_send_to_acknowledge_join_or_leave_a_private_chat_and_changes_nothing(Route route) {
        String before = snapshot();

        ApiClient.Response response = api.client.send(route.method, path(route, stranger), api.client.signIn(stranger),
                body(route));

        assertProblem(response, 404, "unknown-chat");
        assertNothingLeaks(response);
        assertThat(snapshot()).isEqualTo(before);
    }

    static Stream<Route> chatRoutesRefusedToStrangers() {
        return Stream.of(Route.SEND, Route.READ, Route.ACKNOWLEDGE, Route.ACKNOWLEDGE_MANY, Route.INVITE, Route.LEAVE,
                Route.JOIN_YOURSELF);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("chatRoutesRefusedToStrangers")
    void to_a_non_member_a_private_chat_answers_exactly_as_a_missing_one(Route route) {
        String token = api.client.signIn(stranger);
        String missing = chat + "-missing";

        ApiClient.Response existing = api.client.send(route.method, path(route, stranger), token, body(route));
        ApiClient.Response absent = api.client.send(route.method, path(route, stranger).replace(chat, missing), token,
                body(route) == null ? null : body(route).replace(chat, missing));

        JsonNode toExisting = assertProblem(existing, 404, "unknown-chat");
        JsonNode toAbsent = assertProblem(absent, 404, "unknown-chat");
        for (String field : List.of("type", "title", "status")) {
            assertThat(toExisting.get(field)).as(field).isEqualTo(toAbsent.get(field));
        }
        assertThat(toExisting.get("detail").stringValue())
                .isEqualTo(toAbsent.get("detail").stringValue().replace(missing, chat));
    }

    @Test
    void a_non_member_joins_an_open_chat_by_itself_but_brings_no_one_else_in() {
        String open = chat + "-open";
        expect(201, api.client.post("/api/chats", api.client.signIn(owner), "{\"members\":[],\"message\":\"all welcome\","
                + "\"chatId\":\"" + open + "\",\"open\":true}"));
        String strangerToken = api.client.signIn(stranger);

        ApiClient.Response invite = api.client.post("/api/chats/" + open + "/members", strangerToken,
                "{\"user\":\"" + newcomer + "\"}");
        ApiClient.Response join = api.client.post("/api/chats/" + open + "/members", strangerToken, null);

        assertProblem(invite, 403, "not-a-member");
        assertThat(join.status()).as(join.body()).isEqualTo(204);
        assertThat(api.client.get("/api/chats", api.client.signIn(newcomer)).json().values()).isEmpty();
        assertThat(api.client.get("/api/chats/" + open + "/messages", strangerToken).json().get("messages").values())
                .as("what was sent before the stranger came in").isEmpty();
    }

    @Test
    void a_non_member_cannot_make_a_member_leave() {
        String before = snapshot();

        ApiClient.Response response = api.client.delete("/api/chats/" + chat + "/members/" + member,
                api.client.signIn(stranger));

        assertProblem(response, 403, "forbidden");
        assertNothingLeaks(response);
        assertThat(snapshot()).isEqualTo(before);
    }

    @Test
    void a_member_cannot_make_another_member_leave() {
        String before = snapshot();

        ApiClient.Response response = api.client.delete("/api/chats/" + chat + "/members/" + owner,
                api.client.signIn(member));

        assertProblem(response, 403, "forbidden");
        assertNothingLeaks(response);
        assertThat(snapshot()).isEqualTo(before);
    }

    @Test
    void a_non_members_chat_list_and_pending_do_not_contain_the_chat() {
        String token = api.client.signIn(stranger);

        ApiClient.Response chats = api.client.get("/api/chats", token);
        ApiClient.Response pending = api.client.get("/api/pending", token);

        assertThat(chats.status()).isEqualTo(200);
        assertThat(chats.json().values()).extracting(entry -> entry.get("chatId").stringValue()).doesNotContain(chat);
        assertThat(pending.status()).isEqualTo(200);
        assertThat(pending.json().get("chats").values()).extracting(entry -> entry.get("chatId").stringValue())
                .doesNotContain(chat);
        assertNothingLeaks(chats);
        assertNothingLeaks(pending);
    }

    @Test
    void the_mailbox_routes_reach_only_the_callers_own_mailbox() {
        String before = snapshot();
        String strangerToken = api.client.signIn(stranger);

        ApiClient.Response read = api.client.get("/api/mailbox", strangerToken);
        ApiClient.Response acknowledged = api.client.post("/api/mailbox/read", strangerToken, "{\"upTo\":1}");

        assertThat(read.status()).isEqualTo(200);
        assertThat(read.json().get("messages").values()).isEmpty();
        assertNothingLeaks(read);
        // The stranger's own mailbox never handed out id 1: the owner's is out of its reach.
        assertProblem(acknowledged, 400, "invalid-input");
        assertThat(snapshot()).isEqualTo(before);
        assertThat(StoreSnapshot.mailbox(api, owner)).contains(secrets.get(3));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("allRoutes")
    void a_member_is_served_on_every_route(Route route) {
        ApiClient.Response response = api.client.send(route.method, path(route, owner), api.client.signIn(owner),
                body(route));

        assertThat(response.status()).as(response.body()).isEqualTo(route.success);
        if (response.status() != 204 && !response.body().isEmpty()) {
            assertThat(response.contentType()).startsWith("application/json");
        }
    }

    /** The event stream never ends, so a member's is read with the live client below instead. */
    static Stream<Route> allRoutes() {
        return Stream.of(Route.values()).filter(route -> route != Route.EVENTS);
    }

    @Test
    void a_member_is_served_the_event_stream_and_a_stranger_gets_nothing_of_the_chat_even_claiming_it() throws Exception {
        String memberToken = api.client.signIn(member);
        try (LiveClient members = LiveClient.events(api.server.port(), memberToken);
             LiveClient strangers = LiveClient.events(api.server.port(), api.client.signIn(stranger), chat + ":1")) {
            members.nextMessage(chat, 2);
            expect(201, api.client.post("/api/chats/" + chat + "/messages", memberToken, message("after")));
            members.nextMessage(chat, 4);

            // Published after the chat's messages: once the stranger has this, it would have had those.
            String witness = chat + "-witness";
            expect(201, api.client.post("/api/chats", api.client.signIn(owner), "{\"members\":[\"" + stranger
                    + "\"],\"message\":\"witness\",\"chatId\":\"" + witness + "\"}"));
            strangers.nextMessage(witness, 1);
            assertThat(strangers.messages(chat)).isEmpty();
            assertThat(strangers.received().toString()).doesNotContain(MARKER);
        }
    }

    @Test
    void a_member_sees_the_history_that_is_kept_from_everyone_else() {
        // The positive side of the leak checks: the texts they look for really are in the store.
        ApiClient.Response history = api.client.get("/api/chats/" + chat + "/messages", api.client.signIn(member));

        assertThat(history.json().get("messages").values()).extracting(message -> message.get("message").stringValue())
                .containsExactly(secrets.get(0), secrets.get(1), secrets.get(2));
    }

    /** How a valid token is altered; each alteration leaves a string the old, lenient parser still read. */
    static Stream<Arguments> alteredTokens() {
        return Stream.of(
                Arguments.of("'!' appended", (UnaryOperator<String>) t -> t + "!"),
                Arguments.of("'~' appended", (UnaryOperator<String>) t -> t + "~"),
                Arguments.of("'=' appended", (UnaryOperator<String>) t -> t + "="),
                Arguments.of("'==' appended", (UnaryOperator<String>) t -> t + "=="),
                Arguments.of("'.' appended", (UnaryOperator<String>) t -> t + "."),
                Arguments.of("a fourth segment", (UnaryOperator<String>) t -> t + ".e30"),
                Arguments.of("'+' appended", (UnaryOperator<String>) t -> t + "+"),
                Arguments.of("'/' appended", (UnaryOperator<String>) t -> t + "/"),
                Arguments.of("'!' inside the signature", (UnaryOperator<String>) t -> insert(t, 2, "!")),
                Arguments.of("'=' inside the signature", (UnaryOperator<String>) t -> insert(t, 2, "=")),
                Arguments.of("'~' inside the claims", (UnaryOperator<String>) t -> insert(t, 1, "~")),
                Arguments.of("'!' inside the header", (UnaryOperator<String>) t -> insert(t, 0, "!")),
                Arguments.of("'.' in front", (UnaryOperator<String>) t -> "." + t));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("alteredTokens")
    void a_token_altered_outside_base64url_is_refused_though_it_decodes_to_the_same(String why,
                                                                                    UnaryOperator<String> alter) {
        String token = api.tokens.issue(UserId.of(owner));
        assertThat(api.client.get("/api/chats", token).status()).as("the token unaltered").isEqualTo(200);

        ApiClient.Response response = api.client.get("/api/chats", alter.apply(token));

        JsonNode problem = assertProblem(response, 401, "unauthorized");
        assertThat(problem.get("detail").stringValue()).contains("not a signed JWT");
        assertNothingLeaks(response);
    }

    /** {@code text} put in the middle of one of the token's three segments. */
    private static String insert(String token, int segment, String text) {
        String[] parts = token.split("\\.");
        int middle = parts[segment].length() / 2;
        parts[segment] = parts[segment].substring(0, middle) + text + parts[segment].substring(middle);
        return String.join(".", parts);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("invitationAnswers")
    void nobody_answers_an_invitation_made_to_someone_else_and_it_changes_nothing(Route route) {
        String before = snapshot();

        for (String caller : List.of(stranger, member, inviter)) {
            ApiClient.Response response = api.client.send(route.method, path(route, caller), api.client.signIn(caller),
                    body(route));

            assertProblem(response, 404, "no-invitation");
            assertNothingLeaks(response);
        }
        assertThat(snapshot()).isEqualTo(before);
        assertThat(StoreSnapshot.read(api, "/api/invitations", owner)).contains(invited);
    }

    static Stream<Route> invitationAnswers() {
        return Stream.of(Route.ACCEPT_INVITATION, Route.DECLINE_INVITATION);
    }

    @Test
    void an_invitee_reads_nothing_of_the_chat_until_it_accepts() {
        String ownerToken = api.client.signIn(owner);

        ApiClient.Response before = api.client.get("/api/chats/" + invited + "/messages", ownerToken);
        ApiClient.Response send = api.client.post("/api/chats/" + invited + "/messages", ownerToken, message("early"));

        // To an invitee a private chat is as hidden as to anyone else outside it.
        assertProblem(before, 404, "unknown-chat");
        assertProblem(send, 404, "unknown-chat");
        assertNothingLeaks(before);
        assertThat(StoreSnapshot.read(api, "/api/pending", owner)).doesNotContain(invited);
        expect(204, api.client.post("/api/invitations/" + invited + "/accept", ownerToken));
        assertThat(StoreSnapshot.history(api, invited, owner)).contains(secrets.get(4));
    }

    @Test
    void the_consent_routes_read_and_change_only_the_callers_own() {
        String before = StoreSnapshot.of(api, List.of(owner, member, newcomer, inviter), chat, owner);
        String strangerToken = api.client.signIn(stranger);

        ApiClient.Response invitations = api.client.get("/api/invitations", strangerToken);
        expect(204, api.client.post("/api/blocks", strangerToken, "{\"user\":\"" + inviter + "\"}"));
        expect(204, api.client.delete("/api/blocks/" + member, strangerToken));
        expect(204, api.client.send("PUT", "/api/settings", strangerToken, "{\"addPolicy\":\"co-members\"}"));

        assertThat(invitations.json().get("invitations").values()).isEmpty();
        assertThat(invitations.body()).doesNotContain(invited).doesNotContain(owner);
        assertThat(StoreSnapshot.of(api, List.of(owner, member, newcomer, inviter), chat, owner)).isEqualTo(before);
        assertThat(StoreSnapshot.read(api, "/api/blocks", stranger)).contains(inviter);
    }

    @Test
    void with_dev_login_off_nobody_is_signed_in_by_name() {
        try (TestApi locked = TestApi.start(Limits.DEFAULTS, HttpSettings.defaults(false))) {
            ApiClient.Response response = locked.client.post("/api/session", null, "{\"user\":\"alice\"}");

            assertProblem(response, 403, "dev-login-off");
            assertThat(response.json().has("token")).isFalse();
            assertThat(response.body()).doesNotContain("eyJ");
            // Refusing dev login must not lock everyone out: a token issued under the secret still works.
            assertThat(locked.client.get("/api/chats", locked.tokens.issue(UserId.of("alice"))).status()).isEqualTo(200);
        }
    }

    private String token(BadCredential credential, String user) {
        return switch (credential) {
            case NONE -> null;
            case MALFORMED -> "this-is-not-a-jwt";
            case OTHER_SECRET -> Tokens.withSecret("another secret, just as long and just as strong", Duration.ofHours(1),
                    api.now::get).issue(UserId.of(user));
            case EXPIRED -> {
                String issued = api.tokens.issue(UserId.of(user));
                api.advance(Duration.ofHours(1).plusSeconds(1));
                yield issued;
            }
            case ALG_NONE -> unsigned("{\"alg\":\"none\",\"typ\":\"JWT\"}", "{\"iss\":\"pigeonhole\",\"sub\":\"" + user
                    + "\",\"iat\":" + api.now.get().getEpochSecond() + ",\"exp\":"
                    + api.now.get().plus(Duration.ofHours(1)).getEpochSecond() + "}");
        };
    }

    private static String reasonOf(BadCredential credential) {
        return switch (credential) {
            case NONE -> "Authorization: Bearer";
            case MALFORMED, ALG_NONE -> "not a signed JWT";
            case OTHER_SECRET -> "signature";
            case EXPIRED -> "expired";
        };
    }

    /** A token that claims everything a real one does but carries no signature at all. */
    private static String unsigned(String header, String claims) {
        Base64.Encoder base64 = Base64.getUrlEncoder().withoutPadding();
        return base64.encodeToString(header.getBytes(StandardCharsets.UTF_8)) + "."
                + base64.encodeToString(claims.getBytes(StandardCharsets.UTF_8)) + ".";
    }

    private String path(Route route, String caller) {
        return route.template.replace("{chat}", chat).replace("{member}", member).replace("{self}", caller)
                .replace("{invited}", invited);
    }

    private String body(Route route) {
        return route.body == null ? null
                : route.body.replace("{member}", member).replace("{newcomer}", newcomer).replace("{chat}", chat);
    }

    private String snapshot() {
        return StoreSnapshot.of(api, List.of(owner, member, stranger, newcomer, inviter), chat, owner);
    }

    /** Every seeded text carries the marker, so even a fragment of one in an answer shows. */
    private static void assertNothingLeaks(ApiClient.Response response) {
        assertThat(response.body()).doesNotContain(MARKER);
    }

    private static String message(String text) {
        return "{\"message\":\"" + text + "\"}";
    }

    private static void expect(int status, ApiClient.Response response) {
        assertThat(response.status()).as("seeding: %s", response.body()).isEqualTo(status);
    }
}
