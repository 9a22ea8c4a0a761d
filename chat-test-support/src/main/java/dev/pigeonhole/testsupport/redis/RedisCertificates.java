package dev.pigeonhole.testsupport.redis;

import dev.pigeonhole.testsupport.CiPolicy;
import dev.pigeonhole.testsupport.Programs;
import dev.pigeonhole.testsupport.TestCertificates;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocketFactory;
import javax.net.ssl.TrustManagerFactory;

/**
 * The certificates of a Redis started over TLS, made by {@code openssl} in a directory of their
 * own before the server starts: a CA of the test's own, which signed the server's certificate (for
 * {@code localhost} and {@code 127.0.0.1}) and a client's, and an unrelated CA, which signed
 * nothing. All PEM; the keys PKCS #8.
 *
 * @param dir the directory holding them all
 */
public record RedisCertificates(Path dir) {

    private static final String OPENSSL = "openssl";
    private static final String AUTHORITY_KEY = "ca.key";
    /** The client's certificate and key once more, as a PKCS #12 store, for the fixture's own connections. */
    private static final String CLIENT_STORE = "client.p12";

    /** Makes them in a new temporary directory; without {@code openssl} the calling test skips (fails on CI). */
    static RedisCertificates make() {
        Path openssl = Programs.find(List.of(OPENSSL), List.of()).map(found -> found.path(OPENSSL))
                .orElseGet(() -> CiPolicy.unavailable("Redis over TLS needs openssl, which is not on the PATH: "
                        + "install it (for example 'apt-get install openssl')."));
        try {
            Path dir = Files.createTempDirectory("ph-redis-tls-");
            RedisCertificates made = new RedisCertificates(dir);
            List<List<String>> commands = new ArrayList<>();
            commands.add(TestCertificates.authority(openssl, dir, AUTHORITY_KEY, "ca.crt", "Pigeonhole test CA"));
            commands.add(TestCertificates.authority(openssl, dir, "unrelated-ca.key", "unrelated-ca.crt", "Unrelated test CA"));
            commands.add(TestCertificates.signed(openssl, dir, "server.key", "server.crt", "localhost", "ca.crt",
                    AUTHORITY_KEY, "DNS:localhost,IP:127.0.0.1"));
            commands.add(TestCertificates.signed(openssl, dir, "client.key", "client.crt", "pigeonhole", "ca.crt",
                    AUTHORITY_KEY, ""));
            commands.add(List.of(openssl.toString(), "pkcs12", "-export", "-in", made.clientCertificate().toString(),
                    "-inkey", made.clientKey().toString(), "-out", dir.resolve(CLIENT_STORE).toString(), "-passout", "pass:"));
            for (List<String> command : commands) {
                run(command);
            }
            return made;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot make the test certificates", e);
        }
    }

    public Path authority() {
        return dir.resolve("ca.crt");
    }

    public Path unrelatedAuthority() {
        return dir.resolve("unrelated-ca.crt");
    }

    Path serverCertificate() {
        return dir.resolve("server.crt");
    }

    Path serverKey() {
        return dir.resolve("server.key");
    }

    public Path clientCertificate() {
        return dir.resolve("client.crt");
    }

    public Path clientKey() {
        return dir.resolve("client.key");
    }

    /** The {@code redis-server} options that serve TLS on {@code port} only, asking clients for a certificate when {@code required}. */
    List<String> serverOptions(int port, boolean clientCertificateRequired) {
        return List.of("--port", "0", "--tls-port", Integer.toString(port),
                "--tls-cert-file", serverCertificate().toString(),
                "--tls-key-file", serverKey().toString(),
                "--tls-ca-cert-file", authority().toString(),
                "--tls-auth-clients", clientCertificateRequired ? "yes" : "optional");
    }

    /** Sockets for the fixture's own connections: trusting the test CA, presenting the client certificate. */
    SSLSocketFactory socketFactory() {
        try {
            KeyStore trusted = KeyStore.getInstance("PKCS12");
            trusted.load(null, null);
            try (InputStream in = Files.newInputStream(authority())) {
                trusted.setCertificateEntry("ca", CertificateFactory.getInstance("X.509").generateCertificate(in));
            }
            TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            trust.init(trusted);
            KeyStore client = KeyStore.getInstance("PKCS12");
            try (InputStream in = Files.newInputStream(dir.resolve(CLIENT_STORE))) {
                client.load(in, new char[0]);
            }
            KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            keys.init(client, new char[0]);
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(keys.getKeyManagers(), trust.getTrustManagers(), null);
            return context.getSocketFactory();
        } catch (IOException | GeneralSecurityException e) {
            throw new IllegalStateException("cannot read the test certificates in " + dir, e);
        }
    }

    /** Deletes the directory and everything in it. */
    void delete() {
        if (!Files.isDirectory(dir)) {
            return;
        }
        try (var files = Files.list(dir)) {
            for (Path file : files.toList()) {
                Files.deleteIfExists(file);
            }
            Files.deleteIfExists(dir);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete " + dir, e);
        }
    }

    private static void run(List<String> command) throws IOException {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        try {
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!process.waitFor(30, TimeUnit.SECONDS) || process.exitValue() != 0) {
                throw new IllegalStateException(String.join(" ", command) + " failed:\n" + output);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
            throw new IllegalStateException("interrupted while making certificates", e);
        }
    }
}
