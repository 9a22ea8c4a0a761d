package dev.pigeonhole.adapter.http.dto;

/** RFC 9457 problem details; {@code type} is a relative URI naming the kind of problem. */
public record ProblemJson(String type, String title, int status, String detail, String instance) {

    public static ProblemJson from(String type, String title, int status, String detail, String instance) {
        return new ProblemJson("/problems/" + type, title, status, detail, instance);
    }
}
