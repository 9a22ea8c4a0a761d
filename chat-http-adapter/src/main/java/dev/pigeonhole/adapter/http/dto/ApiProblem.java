package dev.pigeonhole.adapter.http.dto;

/** RFC 9457 problem details; {@code type} is a relative URI naming the kind of problem. */
public record ApiProblem(String type, String title, int status, String detail, String instance) {

    public static ApiProblem from(String type, String title, int status, String detail, String instance) {
        return new ApiProblem("/problems/" + type, title, status, detail, instance);
    }
}
