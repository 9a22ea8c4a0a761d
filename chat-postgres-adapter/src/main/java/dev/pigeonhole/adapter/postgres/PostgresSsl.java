package dev.pigeonhole.adapter.postgres;

import org.postgresql.Driver;
import org.postgresql.jdbc.SslMode;
import org.postgresql.util.PSQLException;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.Properties;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * How the store's connections use SSL: PgJDBC's own connection properties {@code sslmode} and
 * {@code sslrootcert}, passed through unchanged to the pool's connections and the listening one.
 * Either left empty is whatever the URL says, else PgJDBC's default: for PgJDBC 42.7,
 * {@code prefer} (encrypt when the server offers SSL, but check no certificate, so it guards
 * against a listener on the wire and not against a server in the middle), and, for the modes that
 * check, the CA in {@code ~/.postgresql/root.crt}. The socket factory stays PgJDBC's default,
 * {@code LibPQFactory}, which reads these two as libpq does, with one difference: a CA file makes
 * {@code require} check nothing here, where libpq would check the chain.
 *
 * <p>So that one connection never hears two answers, a setting the URL also names must say the
 * same, and a CA file is refused unless the mode, here or in the URL, checks certificates.
 *
 * @param mode     {@code sslmode}; empty leaves it to the URL or to PgJDBC
 * @param rootCert {@code sslrootcert}, the certificate (PEM or DER) of the CA that signed the
 *                 server's; empty leaves it to the URL or to PgJDBC
 */
public record PostgresSsl(Optional<Mode> mode, Optional<Path> rootCert) {

    /** Nothing set: the URL's settings, or PgJDBC's own. */
    public static final PostgresSsl DRIVER_DEFAULTS = new PostgresSsl(Optional.empty(), Optional.empty());

    private static final String SSLMODE = "sslmode";
    private static final String SSLROOTCERT = "sslrootcert";

    /** libpq's SSL modes, as PgJDBC names them; each checks more than the one before. */
    public enum Mode {
        /** No SSL. */
        DISABLE,
        /** SSL only if the server insists on it. */
        ALLOW,
        /** SSL if the server offers it; no certificate checked. */
        PREFER,
        /** SSL or no connection; no certificate checked. */
        REQUIRE,
        /** SSL, and the server's certificate signed by the CA. */
        VERIFY_CA,
        /** SSL, the certificate signed by the CA and naming the host the URL names. */
        VERIFY_FULL;

        /** The name PgJDBC and libpq give it: {@code verify-full}. */
        public String value() {
            return name().toLowerCase(Locale.ROOT).replace('_', '-');
        }

        /** The mode {@code value} names, in any case; refused in one sentence that lists them. */
        public static Mode parse(String value) {
            return Stream.of(values()).filter(mode -> mode.value().equalsIgnoreCase(value.strip())).findFirst()
                    .orElseThrow(() -> new IllegalArgumentException("'" + value + "' is no sslmode; one of "
                            + Stream.of(values()).map(Mode::value).collect(Collectors.joining(", "))));
        }
    }

    public PostgresSsl {
        Objects.requireNonNull(mode, "mode");
        Objects.requireNonNull(rootCert, "rootCert");
    }

    public static PostgresSsl of(Mode mode, Path rootCert) {
        return new PostgresSsl(Optional.ofNullable(mode), Optional.ofNullable(rootCert));
    }

    /**
     * Refuses what would leave a reader unsure which setting holds: a setting the URL names
     * otherwise (PgJDBC would let the URL win, silently), or a CA file that the mode in force,
     * as PgJDBC works it out from both, never reads.
     */
    void checkAgainst(String url) {
        Properties fromUrl = Optional.ofNullable(Driver.parseURL(url, null)).orElseGet(Properties::new);
        String urlMode = fromUrl.getProperty(SSLMODE);
        if (mode.isPresent() && urlMode != null && Mode.parse(urlMode) != mode.get()) {
            throw givenTwice(SSLMODE, urlMode, mode.get().value());
        }
        String urlRootCert = fromUrl.getProperty(SSLROOTCERT);
        if (rootCert.isPresent() && urlRootCert != null && !Path.of(urlRootCert).equals(rootCert.get())) {
            throw givenTwice(SSLROOTCERT, urlRootCert, rootCert.get().toString());
        }
        if (rootCert.isPresent()) {
            Properties effective = new Properties();
            effective.putAll(fromUrl);
            mode.ifPresent(value -> effective.setProperty(SSLMODE, value.value()));
            SslMode inForce = inForce(effective);
            if (!inForce.verifyCertificate()) {
                throw new IllegalArgumentException("a CA file for PostgreSQL is read only with sslmode verify-ca or "
                        + "verify-full; with " + inForce.value + " PgJDBC checks no certificate");
            }
        }
    }

    /**
     * Reads the CA file, if one is set, as PgJDBC will (X.509 certificates, PEM or DER), so that a
     * file it could not use is refused as a bad setting before a connection is tried, rather than
     * taken for a database that does not answer.
     */
    void checkRootCert() {
        if (rootCert.isEmpty()) {
            return;
        }
        Path file = rootCert.get();
        try (InputStream in = Files.newInputStream(file)) {
            if (CertificateFactory.getInstance("X.509").generateCertificates(in).isEmpty()) {
                throw unusable(file, "it holds no certificate");
            }
        } catch (NoSuchFileException e) {
            throw unusable(file, "no such file");
        } catch (AccessDeniedException e) {
            throw unusable(file, "permission denied");
        } catch (IOException e) {
            throw unusable(file, e.getMessage());
        } catch (CertificateException e) {
            throw unusable(file, "it holds no X.509 certificate, PEM or DER");
        }
    }

    /** Adds what is set, and only that, to a connection's properties. */
    void addTo(Properties properties) {
        mode.ifPresent(value -> properties.setProperty(SSLMODE, value.value()));
        rootCert.ifPresent(value -> properties.setProperty(SSLROOTCERT, value.toString()));
    }

    @Override
    public String toString() {
        if (mode.isEmpty() && rootCert.isEmpty()) {
            return "driver defaults";
        }
        return Stream.concat(mode.map(value -> SSLMODE + "=" + value.value()).stream(),
                rootCert.map(value -> SSLROOTCERT + "=" + value).stream()).collect(Collectors.joining(", "));
    }

    private static IllegalArgumentException unusable(Path file, String why) {
        return new IllegalArgumentException("cannot read the PostgreSQL CA file " + file + ": " + why);
    }

    private static IllegalArgumentException givenTwice(String name, String inUrl, String given) {
        return new IllegalArgumentException("the JDBC URL says " + name + "=" + inUrl + " but " + given
                + " is given beside it: say it in one place");
    }

    private static SslMode inForce(Properties properties) {
        try {
            return SslMode.of(properties);
        } catch (PSQLException e) {
            throw new IllegalArgumentException("the JDBC URL's sslmode: " + e.getMessage(), e);
        }
    }
}
