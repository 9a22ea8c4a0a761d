package dev.pigeonhole.adapter.http.dto;

/** @param status {@code up} or {@code down}; on readiness {@code ready}, {@code down} or {@code stopping} */
public record ApiHealth(String status, String store, String detail) {
}
