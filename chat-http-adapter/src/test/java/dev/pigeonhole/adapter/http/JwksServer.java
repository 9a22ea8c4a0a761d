package dev.pigeonhole.adapter.http;

import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.JWKSet;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * An identity provider's JWKS endpoint on a free loopback port: it serves whatever keys or text
 * the test sets, with the status the test sets, and counts the fetches.
 */
public final class JwksServer implements AutoCloseable {

    private final HttpServer server;
    private final AtomicReference<String> body = new AtomicReference<>("{\"keys\":[]}");
    private final AtomicInteger status = new AtomicInteger(200);
    private final AtomicInteger fetches = new AtomicInteger();

    public JwksServer() {
        try {
            server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        server.createContext("/jwks.json", exchange -> {
            fetches.incrementAndGet();
            byte[] bytes = body.get().getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "application/json");
            exchange.sendResponseHeaders(status.get(), bytes.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(bytes);
            }
        });
        server.start();
    }

    /** Publishes the public halves of these keys, and only them. */
    public JwksServer serve(JWK... keys) {
        return serveText(new JWKSet(List.of(keys)).toPublicJWKSet().toString());
    }

    public JwksServer serveText(String text) {
        body.set(text);
        return this;
    }

    public JwksServer answer(int value) {
        status.set(value);
        return this;
    }

    public URI url() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/jwks.json");
    }

    public int fetches() {
        return fetches.get();
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
