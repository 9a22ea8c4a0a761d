package dev.pigeonhole.adapter.http.dto;

/** @param status {@code up} or {@code down} */
public record ApiHealth(String status, String store, String detail) {
}
