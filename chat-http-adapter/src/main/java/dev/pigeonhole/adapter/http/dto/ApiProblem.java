package dev.pigeonhole.adapter.http.dto;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * RFC 9457 problem details; {@code type} is a relative URI naming the kind of problem.
 * {@code messageId}, an extension member, is there only when the problem concerns a message that
 * was stored ({@code not-durable}).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ApiProblem(String type, String title, int status, String detail, String instance, Long messageId) {

    public static ApiProblem from(String type, String title, int status, String detail, String instance,
                                  Long messageId) {
        return new ApiProblem("/problems/" + type, title, status, detail, instance, messageId);
    }
}
