package dev.pigeonhole.adapter.http;

import static dev.pigeonhole.adapter.http.ProblemAssertions.assertIsProblem;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.math.BigInteger;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;

/**
 * Random requests that are wrong by construction, thrown at every route: whatever they hold, the
 * answer is a 4xx problem (or, for a read, its ordinary answer), never a 5xx, and the store is
 * exactly as it was. Each generator breaks a request in at least one way the API must refuse, so
 * a success other than a read is itself a failure.
 */
class RandomizedBadInputTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final Pattern VALID_ID = Pattern.compile("[A-Za-z0-9._-]{1,64}");
    private static final String ID_CHARS = "ABCXYZabcxyz0189._-";
    /** Upper bound of the seeded chat's ids, with room: an acknowledgement up to here could succeed. */
    private static final int ACKNOWLEDGEABLE = 1_000;
    private static final int OVER_LIMIT = 4_097;

    private static TestApi api;
    private static HttpClient http;
    private static String memberToken;
    private static String strangerToken;
    private static String seeded;

    /** A request as sent; {@code authorization} is the whole header value, or empty for none. */
    record Attempt(String method, String path, String authorization, byte[] body) {

        @Override
        public String toString() {
            String shownPath = path.length() > 200 ? path.substring(0, 200) + "…(" + path.length() + ")" : path;
            String shownBody = body == null ? "no body" : body.length > 200 ? body.length + " bytes"
                    : new String(body, StandardCharsets.UTF_8);
            String who = authorization.isEmpty() ? "no token" : authorization.length() > 40
                    ? authorization.substring(0, 40) + "…" : authorization;
            return method + " " + shownPath + " [" + who + "] " + shownBody;
        }
    }

    /** A route that reads a JSON body, with the body a member would send it successfully. */
    enum BodyRoute {
        SESSION("POST", "/api/session", "user", "\"someone\""),
        CREATE("POST", "/api/chats", "members", "[\"bob\"]", "message", "\"hello\""),
        SEND("POST", "/api/chats/seed/messages", "message", "\"hello\""),
        ACKNOWLEDGE("POST", "/api/chats/seed/read", "upTo", "1"),
        ACKNOWLEDGE_MANY("POST", "/api/read", "chats", "{\"seed\":1}"),
        JOIN("POST", "/api/chats/seed/members"),
        DELIVER("POST", "/api/users/bob/mailbox", "message", "\"hello\""),
        ACKNOWLEDGE_MAILBOX("POST", "/api/mailbox/read", "upTo", "1"),
        BLOCK("POST", "/api/blocks", "user", "\"bob\""),
        CHOOSE_SETTINGS("PUT", "/api/settings", "addPolicy", "\"co-members\"");

        final String method;
        final String path;
        final Map<String, String> validFields;

        /** @param fieldsAndValues name, JSON value, name, JSON value…, kept in order so a seed replays the same bodies */
        BodyRoute(String method, String path, String... fieldsAndValues) {
            this.method = method;
            this.path = path;
            this.validFields = new LinkedHashMap<>();
            for (int i = 0; i < fieldsAndValues.length; i += 2) {
                validFields.put(fieldsAndValues[i], fieldsAndValues[i + 1]);
            }
        }

        /** The fields this route takes, optional ones included: an added field must be none of them. */
        Set<String> accepted() {
            return this == CREATE ? Set.of("members", "message", "chatId") : Set.copyOf(validFields.keySet());
        }
    }

    @BeforeContainer
    static void startServerWithAChatAndAMailbox() {
        api = TestApi.start();
        http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(5)).build();
        memberToken = api.client.signIn("alice");
        String bob = api.client.signIn("bob");
        strangerToken = api.client.signIn("mallory");
        expect(201, api.client.post("/api/chats", memberToken,
                "{\"members\":[\"bob\"],\"message\":\"one\",\"chatId\":\"seed\"}"));
        expect(201, api.client.post("/api/chats/seed/messages", memberToken, "{\"message\":\"two\"}"));
        expect(201, api.client.post("/api/chats/seed/messages", bob, "{\"message\":\"three\"}"));
        expect(201, api.client.post("/api/users/alice/mailbox", bob, "{\"message\":\"for alice\"}"));
        seeded = snapshot();
    }

    @AfterContainer
    static void stopServer() {
        api.close();
    }

    @Property(tries = 150)
    void a_malformed_body_is_refused_on_every_route_that_takes_one(@ForAll("malformedBodies") Attempt attempt) {
        ApiClient.Response response = send(attempt);

        assertRefused(attempt, response);
        assertThat(snapshot()).as("the store after %s", attempt).isEqualTo(seeded);
    }

    @Property(tries = 100)
    void an_invalid_id_is_refused_in_a_path_and_in_a_body(@ForAll("invalidIdRequests") Attempt attempt) {
        ApiClient.Response response = send(attempt);

        assertRefused(attempt, response);
        assertThat(snapshot()).as("the store after %s", attempt).isEqualTo(seeded);
    }

    @Property(tries = 100)
    void a_random_path_or_method_is_answered_with_a_problem_or_a_read(@ForAll("randomRoutes") Attempt attempt) {
        ApiClient.Response response = send(attempt);

        assertThat(response.status()).as("status of %s: %s", attempt, response.body()).isLessThan(500);
        if (response.status() >= 300) {
            assertRefused(attempt, response);
        } else {
            // Dot segments may fold a junk path onto a real route; only a read may then succeed.
            assertThat(attempt.method()).as("a %d for %s", response.status(), attempt).isIn("GET", "HEAD");
        }
        assertThat(snapshot()).as("the store after %s", attempt).isEqualTo(seeded);
    }

    @Property(tries = 60)
    void a_bad_query_parameter_is_refused_or_left_to_a_read(@ForAll("badQueries") Attempt attempt) {
        ApiClient.Response response = send(attempt);

        assertThat(response.status()).as("status of %s: %s", attempt, response.body()).isLessThan(500);
        if (response.status() >= 300) {
            assertRefused(attempt, response);
        } else {
            assertThat(attempt.method()).as("a %d for %s", response.status(), attempt).isEqualTo("GET");
        }
        assertThat(snapshot()).as("the store after %s", attempt).isEqualTo(seeded);
    }

    @Property(tries = 60)
    void a_forged_or_tampered_credential_never_gets_in(@ForAll("forgedCredentials") Attempt attempt) {
        ApiClient.Response response = send(attempt);

        assertThat(response.status()).as("status of %s: %s", attempt, response.body()).isEqualTo(401);
        assertIsProblem(response);
        assertThat(snapshot()).as("the store after %s", attempt).isEqualTo(seeded);
    }

    /** What the server takes as a request id, written apart from it: the answer must agree with this. */
    private static final Pattern SANE_REQUEST_ID = Pattern.compile("[A-Za-z0-9._:-]{1,64}");

    @Property(tries = 100)
    void a_request_id_is_echoed_exactly_when_it_is_plainly_an_id(@ForAll("requestIds") String offered) throws Exception {
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
                        + api.server.port() + "/health")).timeout(Duration.ofSeconds(10))
                .header(RequestIds.HEADER, offered).build(), HttpResponse.BodyHandlers.ofString());

        // HTTP drops the spaces around a header's value before anyone reads it.
        String received = offered.strip();
        List<String> echoed = response.headers().allValues(RequestIds.HEADER);
        if (SANE_REQUEST_ID.matcher(received).matches()) {
            assertThat(echoed).as("the id for %s", offered).containsExactly(received);
        } else {
            assertThat(echoed).as("the id for %s", offered).singleElement().asString().matches("[0-9a-f]{16}");
        }
    }

    @Provide
    Arbitrary<String> requestIds() {
        Arbitrary<String> plain = Arbitraries.strings().withChars("abcXYZ0189._:-").ofMinLength(1).ofMaxLength(70);
        Arbitrary<String> printable = Arbitraries.strings().withCharRange(' ', '~').ofMinLength(1).ofMaxLength(80)
                .filter(value -> !value.isBlank());
        return Arbitraries.oneOf(plain, printable);
    }

    // ---- bodies

    @Provide
    Arbitrary<Attempt> malformedBodies() {
        return Arbitraries.of(BodyRoute.class).flatMap(route -> Combinators.combine(malformedBody(route), anyCaller())
                .as((body, caller) -> new Attempt(route.method, route.path, caller, body)));
    }

    private Arbitrary<byte[]> malformedBody(BodyRoute route) {
        List<Tuple.Tuple2<Integer, Arbitrary<String>>> texts = new ArrayList<>(List.of(
                Tuple.of(2, truncated(route)),
                Tuple.of(2, jsonValue(2).filter(text -> !text.startsWith("{"))),
                Tuple.of(2, withUnknownField(route))));
        if (!route.validFields.isEmpty()) {
            texts.add(Tuple.of(3, withWrongType(route)));
            texts.add(Tuple.of(1, withoutARequiredField(route)));
            texts.add(Tuple.of(1, withADuplicateKey(route)));
            texts.add(Tuple.of(3, withAnInvalidValue(route)));
        }
        if (route != BodyRoute.JOIN) {
            // Joining takes no body at all; every other route needs one.
            texts.add(Tuple.of(1, Arbitraries.just("")));
        }
        Arbitrary<byte[]> randomBytes = Arbitraries.bytes().array(byte[].class).ofMinSize(1).ofMaxSize(300)
                .filter(bytes -> !isJsonObject(bytes));
        return Arbitraries.frequencyOf(
                Tuple.of(4, Arbitraries.frequencyOf(texts).map(text -> text.getBytes(StandardCharsets.UTF_8))),
                Tuple.of(1, randomBytes));
    }

    /** Every proper prefix of an object is unfinished JSON; the empty one is left out, it is a case of its own. */
    private static Arbitrary<String> truncated(BodyRoute route) {
        String valid = object(route.validFields);
        return Arbitraries.integers().between(1, valid.length() - 1).map(end -> valid.substring(0, end));
    }

    private static Arbitrary<String> withUnknownField(BodyRoute route) {
        Arbitrary<String> name = text(0, 20).filter(candidate -> !route.accepted().contains(candidate));
        return Combinators.combine(name, jsonValue(1)).as((field, value) -> {
            Map<String, String> fields = new LinkedHashMap<>(route.validFields);
            fields.put(field, value);
            return object(fields);
        });
    }

    private static Arbitrary<String> withWrongType(BodyRoute route) {
        return Arbitraries.of(wrongTypeableFields(route)).flatMap(field -> wrongTypeFor(field)
                .map(value -> replaced(route, field, value)));
    }

    private static List<String> wrongTypeableFields(BodyRoute route) {
        List<String> fields = new ArrayList<>(route.validFields.keySet());
        if (route == BodyRoute.CREATE) {
            fields.add("chatId");
        }
        return fields;
    }

    private static Arbitrary<String> wrongTypeFor(String field) {
        return switch (field) {
            // null would mean "absent", which an optional chat id may be.
            case "chatId" -> jsonValue(2).filter(value -> !value.startsWith("\"") && !value.equals("null"));
            case "message", "user", "addPolicy" -> jsonValue(2).filter(value -> !value.startsWith("\""));
            case "members" -> Arbitraries.oneOf(
                    jsonValue(2).filter(value -> !value.startsWith("[")),
                    Combinators.combine(validId().list().ofMaxSize(3), jsonValue(1).filter(value -> !value.startsWith("\"")))
                            .as((ids, odd) -> "[" + ids.stream().map(RandomizedBadInputTest::quoted)
                                    .map(id -> id + ",").collect(Collectors.joining()) + odd + "]"));
            case "upTo" -> jsonValue(2).filter(value -> !acknowledgeable(value));
            // Not an object, or an object holding something other than a whole number.
            case "chats" -> Arbitraries.oneOf(
                    jsonValue(2).filter(value -> !value.startsWith("{")),
                    jsonValue(1).filter(value -> !acknowledgeable(value) && !value.matches("-?\\d+"))
                            .map(odd -> "{\"seed\":" + odd + "}"));
            default -> throw new IllegalArgumentException(field);
        };
    }

    private static Arbitrary<String> withoutARequiredField(BodyRoute route) {
        return Arbitraries.of(new ArrayList<>(route.validFields.keySet())).map(field -> {
            Map<String, String> fields = new LinkedHashMap<>(route.validFields);
            fields.remove(field);
            return object(fields);
        });
    }

    private static Arbitrary<String> withADuplicateKey(BodyRoute route) {
        return Arbitraries.of(new ArrayList<>(route.validFields.keySet())).map(field ->
                "{" + quoted(field) + ":" + route.validFields.get(field) + "," + object(route.validFields).substring(1));
    }

    /** The right type, a wrong value: a blank or too long message, an invalid id, an upTo the chat cannot take. */
    private static Arbitrary<String> withAnInvalidValue(BodyRoute route) {
        return Arbitraries.of(wrongTypeableFields(route)).flatMap(field -> (switch (field) {
            case "message" -> Arbitraries.oneOf(
                    Arbitraries.strings().withChars(" \t\r\n").ofMaxLength(20),
                    Arbitraries.strings().withChars("ab é漢\u2028").ofMinLength(OVER_LIMIT).ofMaxLength(OVER_LIMIT + 500))
                    .map(RandomizedBadInputTest::quoted);
            case "user", "chatId" -> invalidId().map(RandomizedBadInputTest::quoted);
            // The domain reads a policy's name trimmed and in any case: no such reading may name one.
            case "addPolicy" -> text(0, 30).filter(policy -> !List.of("anyone", "co-members")
                    .contains(policy.trim().toLowerCase(Locale.ROOT))).map(RandomizedBadInputTest::quoted);
            case "members" -> Combinators.combine(validId().list().ofMaxSize(3), invalidId())
                    .as((ids, bad) -> "[" + ids.stream().map(id -> quoted(id) + ",").collect(Collectors.joining())
                            + quoted(bad) + "]");
            case "chats" -> Arbitraries.oneOf(
                    Arbitraries.just("{}"),
                    Arbitraries.longs().lessOrEqual(-1).map(up -> "{\"seed\":" + up + "}"),
                    Arbitraries.longs().greaterOrEqual(ACKNOWLEDGEABLE + 1).map(up -> "{\"seed\":" + up + "}"),
                    invalidId().map(id -> "{" + quoted(id) + ":1}"));
            case "upTo" -> Arbitraries.oneOf(
                    Arbitraries.longs().lessOrEqual(-1).map(String::valueOf),
                    Arbitraries.longs().greaterOrEqual(ACKNOWLEDGEABLE + 1).map(String::valueOf),
                    Arbitraries.bigIntegers().between(BigInteger.valueOf(Long.MAX_VALUE).add(BigInteger.ONE),
                            BigInteger.TEN.pow(60)).map(String::valueOf));
            default -> throw new IllegalArgumentException(field);
        }).map(value -> replaced(route, field, value)));
    }

    // ---- ids

    @Provide
    Arbitrary<Attempt> invalidIdRequests() {
        Arbitrary<Attempt> inPath = Combinators.combine(
                Arbitraries.of(
                        "POST /api/chats/{}/messages {\"message\":\"hello\"}",
                        "GET /api/chats/{}/messages",
                        "POST /api/chats/{}/read {\"upTo\":1}",
                        "POST /api/chats/{}/members",
                        "DELETE /api/chats/{}/members/alice",
                        "DELETE /api/chats/seed/members/{}",
                        "POST /api/users/{}/mailbox {\"message\":\"hello\"}",
                        "POST /api/invitations/{}/accept",
                        "POST /api/invitations/{}/decline",
                        "DELETE /api/blocks/{}"),
                invalidId(), anyCaller()).as((template, id, caller) -> {
                    String[] parts = template.split(" ", 3);
                    byte[] body = parts.length > 2 ? parts[2].getBytes(StandardCharsets.UTF_8) : null;
                    return new Attempt(parts[0], parts[1].replace("{}", encoded(id)), caller, body);
                });
        Arbitrary<Attempt> inBody = Combinators.combine(
                Arbitraries.of(
                        "/api/chats {\"members\":[\"bob\"],\"message\":\"hello\",\"chatId\":{}}",
                        "/api/chats {\"members\":[\"bob\",{}],\"message\":\"hello\"}",
                        "/api/session {\"user\":{}}",
                        "/api/blocks {\"user\":{}}"),
                invalidId(), anyCaller()).as((template, id, caller) -> {
                    String[] parts = template.split(" ", 2);
                    return new Attempt("POST", parts[0], caller, parts[1].replace("{}", quoted(id))
                            .getBytes(StandardCharsets.UTF_8));
                });
        return Arbitraries.oneOf(inPath, inBody);
    }

    // ---- routes and methods

    @Provide
    Arbitrary<Attempt> randomRoutes() {
        Arbitrary<String> method = Arbitraries.oneOf(
                Arbitraries.of("GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "TRACE", "HEAD"),
                Arbitraries.strings().withCharRange('A', 'Z').ofMinLength(3).ofMaxLength(10));
        // No prefix ends where a "." segment would fold the path onto a route that changes something.
        Arbitrary<String> prefix = Arbitraries.of("", "/api", "/api/chats", "/api/chats/seed", "/api/users",
                "/api/users/bob", "/api/mailbox", "/health", "/metrics");
        Arbitrary<String> path = Combinators.combine(prefix, junkSegment().list().ofMinSize(1).ofMaxSize(4))
                .as((start, segments) -> start + "/" + String.join("/", segments));
        Arbitrary<byte[]> body = Arbitraries.bytes().array(byte[].class).ofMaxSize(200)
                .filter(bytes -> !isJsonObject(bytes)).injectNull(0.5);
        return Combinators.combine(method, path, anyCaller(), body).as(Attempt::new);
    }

    /**
     * A path segment no route has: %-escaped junk (including escapes that decode to nothing
     * printable or to no UTF-8 at all), dot segments, or one far longer than any id.
     */
    private static Arbitrary<String> junkSegment() {
        return Arbitraries.oneOf(
                invalidId().map(RandomizedBadInputTest::encoded),
                Arbitraries.bytes().array(byte[].class).ofMinSize(1).ofMaxSize(12).map(RandomizedBadInputTest::escaped),
                Arbitraries.of("..", ".", "%2e%2e", "%2F", "%00", "%25", "%25zz", ";x=1", "~"),
                Arbitraries.strings().withChars(ID_CHARS).ofMinLength(65).ofMaxLength(12_000));
    }

    // ---- queries

    @Provide
    Arbitrary<Attempt> badQueries() {
        Arbitrary<String> value = Arbitraries.oneOf(
                text(0, 30),
                Arbitraries.longs().map(String::valueOf),
                Arbitraries.bigIntegers().between(BigInteger.TEN.pow(18), BigInteger.TEN.pow(40)).map(String::valueOf),
                Arbitraries.of("PT15M", "P2D", "PT0S", "-PT1M", "PT24H", "PT24H0.001S", "P1DT1S", "PT1M ", " 5", "+5", "5x",
                        "1e3", "0x10", "１２"));
        // Reading a mailbox removes nothing, so it is a read like the others.
        return Combinators.combine(
                Arbitraries.of("/api/chats/seed/messages?after=", "/api/chats/seed/messages?limit=",
                        "/api/chats/seed/messages?after=1&limit=", "/api/pending?limit=", "/api/presence?within=",
                        "/api/mailbox?max="),
                value, anyCaller()).as((start, raw, caller) -> new Attempt("GET", start + encoded(raw), caller, null));
    }

    // ---- credentials

    @Provide
    Arbitrary<Attempt> forgedCredentials() {
        Arbitrary<String> header = Arbitraries.oneOf(
                // A real token with one character of its header or claims changed: the signature covers both.
                Combinators.combine(Arbitraries.integers().between(0, Integer.MAX_VALUE),
                        Arbitraries.strings().withChars(ID_CHARS).ofLength(1)).as(RandomizedBadInputTest::tampered)
                        .filter(token -> !token.equals(memberToken)).map(token -> "Bearer " + token),
                Arbitraries.strings().withCharRange(' ', '~').ofMaxLength(300).map(String::strip)
                        .filter(value -> !value.isEmpty()).map(value -> "Bearer " + value),
                Arbitraries.strings().withCharRange(' ', '~').ofMinLength(1).ofMaxLength(100).map(String::strip)
                        .filter(value -> !value.isEmpty()),
                Arbitraries.of("Basic YWxpY2U6c2VjcmV0", "Bearer", "bearer", "Token " + memberToken,
                        "Bearer " + memberToken + "x", "Bearer " + memberToken.substring(0, memberToken.lastIndexOf('.'))));
        Arbitrary<String> request = Arbitraries.of(
                "POST /api/chats {\"members\":[\"bob\"],\"message\":\"hello\"}",
                "GET /api/chats",
                "POST /api/chats/seed/messages {\"message\":\"hello\"}",
                "GET /api/chats/seed/messages",
                "GET /api/pending",
                "POST /api/chats/seed/read {\"upTo\":3}",
                "POST /api/chats/seed/members",
                "DELETE /api/chats/seed/members/alice",
                "POST /api/users/bob/mailbox {\"message\":\"hello\"}",
                "GET /api/mailbox",
                "POST /api/mailbox/read {\"upTo\":1}",
                "GET /api/presence");
        return Combinators.combine(request, header).as((line, authorization) -> {
            String[] parts = line.split(" ", 3);
            byte[] body = parts.length > 2 ? parts[2].getBytes(StandardCharsets.UTF_8) : null;
            return new Attempt(parts[0], parts[1], authorization, body);
        });
    }

    private static String tampered(int position, String replacement) {
        int signed = memberToken.lastIndexOf('.');
        int at = position % signed;
        if (memberToken.charAt(at) == '.' || memberToken.charAt(at) == replacement.charAt(0)) {
            return memberToken;
        }
        return memberToken.substring(0, at) + replacement + memberToken.substring(at + 1);
    }

    // ---- building blocks

    private static Arbitrary<String> anyCaller() {
        return Arbitraries.oneOf(
                Arbitraries.of("Bearer " + memberToken, "Bearer " + strangerToken, ""),
                Arbitraries.strings().withChars(ID_CHARS).ofMinLength(1).ofMaxLength(60).map(junk -> "Bearer " + junk));
    }

    /** JSON text of any kind, nested up to {@code depth}: strings of any script, numbers of any size, literals. */
    private static Arbitrary<String> jsonValue(int depth) {
        Arbitrary<String> scalar = Arbitraries.oneOf(
                text(0, 40).map(RandomizedBadInputTest::quoted),
                Arbitraries.longs().map(String::valueOf),
                Arbitraries.bigIntegers().between(BigInteger.TEN.pow(19), BigInteger.TEN.pow(300)).map(String::valueOf),
                Arbitraries.doubles().map(String::valueOf),
                Arbitraries.of("true", "false", "null", "1e400", "-1e400", "-0", "0.0", "1E-400", "0.5"));
        if (depth == 0) {
            return scalar;
        }
        Arbitrary<String> inner = Arbitraries.lazy(() -> jsonValue(depth - 1));
        return Arbitraries.frequencyOf(
                Tuple.of(4, scalar),
                Tuple.of(1, inner.list().ofMaxSize(4).map(items -> "[" + String.join(",", items) + "]")),
                Tuple.of(1, Combinators.combine(text(0, 10), inner).as((key, value) -> quoted(key) + ":" + value)
                        .list().ofMaxSize(3).map(pairs -> "{" + String.join(",", pairs) + "}")));
    }

    /** Any characters of the basic plane but lone surrogates, which no client could encode. */
    private static Arbitrary<String> text(int min, int max) {
        return Arbitraries.strings().withCharRange('\u0000', '\uD7FF').withCharRange('\uE000', '\uFFFD')
                .ofMinLength(min).ofMaxLength(max);
    }

    private static Arbitrary<String> validId() {
        return Arbitraries.strings().withChars(ID_CHARS).ofMinLength(1).ofMaxLength(64);
    }

    /** Ids that break the rule of docs/DESIGN.md §3 in each way it can be broken; filtered, so none slips through. */
    private static Arbitrary<String> invalidId() {
        Arbitrary<String> allowedRun = Arbitraries.strings().withChars(ID_CHARS).ofMaxLength(20);
        Arbitrary<Character> forbidden = Arbitraries.chars().range('\u0000', '\uD7FF')
                .filter(c -> c > 127 || !Character.isLetterOrDigit(c) && "._-".indexOf(c) < 0);
        return Arbitraries.oneOf(
                Combinators.combine(allowedRun, forbidden, allowedRun).as((before, bad, after) -> before + bad + after),
                Arbitraries.of(":", "a:b", "{x}", "chat:{1}", "a b", " ", "\t", "é", "%", "a/b", "..%2F", "?", "#", "\u0000"),
                Arbitraries.strings().withChars(ID_CHARS).ofMinLength(65).ofMaxLength(400),
                text(1, 80)).filter(id -> !VALID_ID.matcher(id).matches());
    }

    /** Every byte but the unreserved ones %-escaped, so the server decodes exactly the id generated. */
    private static String encoded(String raw) {
        StringBuilder out = new StringBuilder();
        for (byte b : raw.getBytes(StandardCharsets.UTF_8)) {
            char c = (char) (b & 0xff);
            if (c < 128 && (Character.isLetterOrDigit(c) || "-._~".indexOf(c) >= 0)) {
                out.append(c);
            } else {
                out.append('%').append(String.format("%02X", b & 0xff));
            }
        }
        return out.toString();
    }

    private static String escaped(byte[] bytes) {
        StringBuilder out = new StringBuilder();
        for (byte b : bytes) {
            out.append('%').append(String.format("%02X", b & 0xff));
        }
        return out.toString();
    }

    private static String quoted(String text) {
        return JSON.writeValueAsString(text);
    }

    private static String object(Map<String, String> fields) {
        return fields.entrySet().stream().map(field -> quoted(field.getKey()) + ":" + field.getValue())
                .collect(Collectors.joining(",", "{", "}"));
    }

    private static String replaced(BodyRoute route, String field, String value) {
        Map<String, String> fields = new LinkedHashMap<>(route.validFields);
        fields.put(field, value);
        return object(fields);
    }

    /** An integer the seeded chat could take as an acknowledgement, which would move a cursor. */
    private static boolean acknowledgeable(String value) {
        if (!value.matches("-?\\d+")) {
            return false;
        }
        BigInteger number = new BigInteger(value);
        return number.signum() >= 0 && number.compareTo(BigInteger.valueOf(ACKNOWLEDGEABLE)) <= 0;
    }

    private static boolean isJsonObject(byte[] bytes) {
        try {
            return JSON.readTree(bytes).isObject();
        } catch (JacksonException e) {
            return false;
        }
    }

    private static void assertRefused(Attempt attempt, ApiClient.Response response) {
        assertThat(response.status()).as("status of %s: %s", attempt, response.body()).isBetween(400, 499);
        if (attempt.method().equals("HEAD")) {
            // No body comes back for HEAD; the content type still says what it would have been.
            assertThat(response.contentType()).as("content type for %s", attempt).startsWith("application/problem+json");
        } else {
            assertIsProblem(response);
        }
    }

    private static ApiClient.Response send(Attempt attempt) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + api.server.port() + attempt.path()))
                .timeout(Duration.ofSeconds(10))
                .method(attempt.method(), attempt.body() == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofByteArray(attempt.body()));
        if (attempt.body() != null) {
            request.header("Content-Type", "application/json");
        }
        if (!attempt.authorization().isEmpty()) {
            request.header("Authorization", attempt.authorization());
        }
        try {
            HttpResponse<String> response;
            try {
                response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
            } catch (IOException closedUnderIt) {
                // A kept-alive connection the server closed just as this request went out on it
                // answers nothing at all; the client drops it, and the request goes once more on a
                // new one. An input that itself makes the server drop the connection fails twice.
                response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
            }
            return new ApiClient.Response(response.statusCode(), response.body(), response.headers());
        } catch (IOException e) {
            throw new AssertionError("no answer to " + attempt, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    /**
     * Lean, as it runs after every try: the chat's history, its members' pending messages (their
     * cursors), alice's chat list (who is in the chat), mallory's (any chat she opened), every
     * mailbox a route could reach, and the blocks and settings of either caller. Bob's chat list and mallory's pending would repeat these.
     */
    private static String snapshot() {
        return String.join("\n",
                StoreSnapshot.history(api, "seed", "alice"),
                StoreSnapshot.read(api, "/api/pending", "alice"),
                StoreSnapshot.read(api, "/api/pending", "bob"),
                StoreSnapshot.read(api, "/api/chats", "alice"),
                StoreSnapshot.read(api, "/api/chats", "mallory"),
                StoreSnapshot.mailbox(api, "alice").toString(),
                StoreSnapshot.mailbox(api, "bob").toString(),
                StoreSnapshot.mailbox(api, "mallory").toString(),
                StoreSnapshot.read(api, "/api/blocks", "alice"),
                StoreSnapshot.read(api, "/api/blocks", "mallory"),
                StoreSnapshot.read(api, "/api/settings", "alice"),
                StoreSnapshot.read(api, "/api/settings", "mallory"));
    }

    private static void expect(int status, ApiClient.Response response) {
        assertThat(response.status()).as("seeding: %s", response.body()).isEqualTo(status);
    }
}
