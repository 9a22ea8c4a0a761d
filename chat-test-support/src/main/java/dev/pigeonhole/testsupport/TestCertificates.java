package dev.pigeonhole.testsupport;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The {@code openssl} commands that make the certificates of the servers tests start over TLS:
 * a certificate authority of the test's own, certificates it signs, each with its fresh key.
 * Elliptic-curve keys (P-256), since they take no time to make, written unencrypted as PKCS #8
 * ({@code BEGIN PRIVATE KEY}); OpenSSL 3's {@code req -CA} signs in the same command.
 */
public final class TestCertificates {

    /** Long enough for any test run, short enough that a leftover is worth nothing. */
    private static final String DAYS = "2";

    private TestCertificates() {
    }

    /** A self-signed CA certificate {@code certificate} of the key {@code key}, both in {@code dir}, named {@code name}. */
    public static List<String> authority(Path openssl, Path dir, String key, String certificate, String name) {
        List<String> command = newCertificate(openssl, dir, key, certificate, name);
        command.addAll(List.of("-addext", "basicConstraints=critical,CA:TRUE",
                "-addext", "keyUsage=critical,keyCertSign"));
        return command;
    }

    /**
     * A certificate for {@code name} signed by the authority whose files {@code authority} and
     * {@code authorityKey} are, holding {@code subjectAltName} (such as {@code DNS:localhost}) when
     * it is not empty.
     */
    public static List<String> signed(Path openssl, Path dir, String key, String certificate, String name,
                                      String authority, String authorityKey, String subjectAltName) {
        List<String> command = newCertificate(openssl, dir, key, certificate, name);
        command.addAll(List.of("-CA", dir.resolve(authority).toString(), "-CAkey", dir.resolve(authorityKey).toString(),
                "-addext", "basicConstraints=critical,CA:FALSE"));
        if (!subjectAltName.isEmpty()) {
            command.addAll(List.of("-addext", "subjectAltName=" + subjectAltName));
        }
        return command;
    }

    private static List<String> newCertificate(Path openssl, Path dir, String key, String certificate, String name) {
        return new ArrayList<>(List.of(openssl.toString(), "req", "-x509",
                "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
                "-keyout", dir.resolve(key).toString(),
                "-out", dir.resolve(certificate).toString(),
                "-days", DAYS,
                "-subj", "/CN=" + name));
    }
}
