package dev.pigeonhole.adapter.http.dto;

/** A signed-in user and the bearer token to send as {@code Authorization: Bearer <token>}. */
public record ApiSession(String user, String token) {
}
