package dev.pigeonhole.adapter.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;

/** What every error answer of the API must look like, whatever went wrong. */
public final class ProblemAssertions {

    /**
     * A qualified name of a class on the server's class path, such as
     * {@code tools.jackson.core.JsonParseException}: internals leaking out. Only known packages, so
     * that a client's own dotted input echoed back in a detail is not mistaken for one.
     */
    private static final Pattern JAVA_CLASS_NAME = Pattern.compile("\\b(?:java|javax|jakarta|jdk|sun|kotlin|dev\\.pigeonhole"
            + "|io\\.javalin|io\\.micrometer|org\\.eclipse|org\\.slf4j|tools\\.jackson|com\\.nimbusds)\\.[\\w.$]*[A-Z]");

    private ProblemAssertions() {
    }

    /** A problem of exactly this status and type, and a well-formed one. */
    public static JsonNode assertProblem(ApiClient.Response response, int status, String type) {
        assertThat(response.status()).as("status of %s", response.body()).isEqualTo(status);
        JsonNode problem = assertIsProblem(response);
        assertThat(problem.get("type").stringValue()).as("type of %s", response.body()).isEqualTo("/problems/" + type);
        return problem;
    }

    /**
     * A well-formed problem of any status: the content type, the four members RFC 9457 asks of
     * this API with the status repeated faithfully, and no trace of the server's insides.
     */
    public static JsonNode assertIsProblem(ApiClient.Response response) {
        assertThat(response.contentType()).as("content type of a %d", response.status())
                .startsWith("application/problem+json");
        assertNoInternals(response.body());
        JsonNode problem = response.json();
        assertThat(problem.isObject()).as("problem body %s", response.body()).isTrue();
        assertThat(problem.path("type").isString()).as("type in %s", response.body()).isTrue();
        assertThat(problem.path("type").stringValue()).startsWith("/problems/");
        assertThat(problem.path("title").isString()).as("title in %s", response.body()).isTrue();
        assertThat(problem.path("title").stringValue()).isNotBlank();
        assertThat(problem.path("detail").isString()).as("detail in %s", response.body()).isTrue();
        assertThat(problem.path("detail").stringValue()).isNotBlank();
        assertThat(problem.path("status").isInt()).as("status in %s", response.body()).isTrue();
        assertThat(problem.path("status").intValue()).as("status member of %s", response.body())
                .isEqualTo(response.status());
        return problem;
    }

    public static void assertNoInternals(String body) {
        assertThat(body).doesNotContain("Exception", "at dev.", "at io.", "at java.", "at org.", "at tools.");
        assertThat(JAVA_CLASS_NAME.matcher(body).find()).as("a Java class name in %s", body).isFalse();
    }
}
