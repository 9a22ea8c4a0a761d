package dev.pigeonhole.testsupport.postgres;

import dev.pigeonhole.testsupport.TestCertificates;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * What a PostgreSQL server started over SSL was given, made by {@code openssl} while the server
 * was prepared: a certificate authority of its own, which signed the server's certificate for
 * {@value #HOST} and no other name, and an unrelated one, which signed nothing of it. So a client
 * that trusts {@link #authority()} passes {@code verify-full} when it names the server
 * {@value #HOST} ({@link #certifiedUrl()}), and {@code verify-ca} but not {@code verify-full} when
 * it names it 127.0.0.1; a client that trusts {@link #unrelatedAuthority()} passes neither.
 *
 * @param authority          the CA certificate, PEM, that signed the server's
 * @param unrelatedAuthority a CA certificate, PEM, that did not
 * @param certifiedUrl       the server's JDBC URL by the host name its certificate holds
 */
public record PostgresCertificates(Path authority, Path unrelatedAuthority, String certifiedUrl) {

    /** The one name the server's certificate holds, as its subject and its subject alternative name. */
    public static final String HOST = "localhost";

    private static final String AUTHORITY = "ca.crt";
    private static final String UNRELATED_AUTHORITY = "unrelated-ca.crt";
    private static final String CERTIFICATE = "server.crt";
    private static final String KEY = "server.key";

    public PostgresCertificates {
        Objects.requireNonNull(authority, "authority");
        Objects.requireNonNull(unrelatedAuthority, "unrelatedAuthority");
        Objects.requireNonNull(certifiedUrl, "certifiedUrl");
    }

    /** The files {@link #commands} made in {@code dir}, for a server listening on {@code port}. */
    static PostgresCertificates in(Path dir, int port) {
        return new PostgresCertificates(dir.resolve(AUTHORITY), dir.resolve(UNRELATED_AUTHORITY),
                "jdbc:postgresql://" + HOST + ":" + port + "/postgres");
    }

    /**
     * The {@code openssl} commands that make them in {@code dir}, run as the server's user so that
     * it owns its key: two authorities, the server's certificate signed by the first
     * ({@link TestCertificates}), and the key kept from everyone but its owner, which PostgreSQL
     * demands.
     */
    static List<List<String>> commands(Path openssl, Path dir) {
        List<List<String>> commands = new ArrayList<>();
        commands.add(TestCertificates.authority(openssl, dir, "ca.key", AUTHORITY, "Pigeonhole test CA"));
        commands.add(TestCertificates.authority(openssl, dir, "unrelated-ca.key", UNRELATED_AUTHORITY, "Unrelated test CA"));
        commands.add(TestCertificates.signed(openssl, dir, KEY, CERTIFICATE, HOST, AUTHORITY, "ca.key", "DNS:" + HOST));
        commands.add(List.of("chmod", "0600", dir.resolve(KEY).toString()));
        return commands;
    }

    /** The settings that make {@code postgres} offer SSL with the certificate and key in {@code dir}. */
    static List<String> serverSettings(Path dir) {
        return List.of("-c", "ssl=on",
                "-c", "ssl_cert_file=" + dir.resolve(CERTIFICATE),
                "-c", "ssl_key_file=" + dir.resolve(KEY));
    }
}
