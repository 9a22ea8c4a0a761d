package dev.pigeonhole.adapter.http.dto;

/**
 * @param status  {@code up} or {@code down}; on readiness {@code ready}, {@code down} or {@code stopping}
 * @param version the server's release, so an operator can tell which build answers
 */
public record ApiHealth(String status, String store, String detail, String version) {
}
