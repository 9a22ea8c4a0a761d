package dev.pigeonhole.adapter.http.dto;

/** Whom the bearer token signs in, as the server reads it: what a client handed a token needs to know. */
public record ApiCaller(String user) {
}
