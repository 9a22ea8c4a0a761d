package dev.pigeonhole.adapter.redis;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.Base64;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.TrustManagerFactory;

/**
 * The TLS material of {@link RedisSettings.Tls}, read once from its PEM files into the JDK's
 * types, which three of the four clients take as they are (GLIDE takes the CA's PEM bytes, see
 * {@link #caPem(RedisSettings.Tls)}). A file that cannot be read or is not what it should be is an
 * {@link IllegalArgumentException} naming it, in one line.
 *
 * @param trust whom to trust: the CA file's certificates, or the JDK's default trust store
 * @param keys  this client's certificate and key, when it has one
 */
public record RedisTls(TrustManagerFactory trust, Optional<KeyManagerFactory> keys, SSLContext context) {

    private static final Pattern PRIVATE_KEY =
            Pattern.compile("-----BEGIN PRIVATE KEY-----([A-Za-z0-9+/=\\s]+)-----END PRIVATE KEY-----");
    /** A key store held only in memory; its password guards nothing. */
    private static final char[] IN_MEMORY = new char[0];

    /** Reads the files {@code tls} names. */
    public static RedisTls of(RedisSettings.Tls tls) {
        try {
            TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            trust.init(tls.ca() == null ? null : trustStore(tls.ca()));
            Optional<KeyManagerFactory> keys = Optional.empty();
            if (tls.cert() != null) {
                KeyManagerFactory factory = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
                factory.init(keyStore(tls.cert(), tls.key()), IN_MEMORY);
                keys = Optional.of(factory);
            }
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(keys.map(KeyManagerFactory::getKeyManagers).orElse(null), trust.getTrustManagers(), null);
            return new RedisTls(trust, keys, context);
        } catch (GeneralSecurityException e) {
            throw new IllegalArgumentException("cannot set up TLS to Redis: " + e.getMessage(), e);
        }
    }

    /**
     * What every connection checks of the server: its certificate must name the host connected to
     * (as HTTPS does), so a certificate the CA signed for another host is refused.
     */
    public static SSLParameters verifyingHost() {
        SSLParameters parameters = new SSLParameters();
        parameters.setEndpointIdentificationAlgorithm("HTTPS");
        return parameters;
    }

    /** The PEM text of the CA file, for a client that takes it as bytes. */
    public static byte[] caPem(RedisSettings.Tls tls) {
        return read(tls.ca(), "Redis TLS CA file");
    }

    private static KeyStore trustStore(Path ca) throws GeneralSecurityException {
        Collection<? extends Certificate> certificates = certificates(ca, "Redis TLS CA file");
        KeyStore store = emptyStore();
        int i = 0;
        for (Certificate certificate : certificates) {
            store.setCertificateEntry("ca-" + i++, certificate);
        }
        return store;
    }

    private static KeyStore keyStore(Path cert, Path key) throws GeneralSecurityException {
        List<Certificate> chain = List.copyOf(certificates(cert, "Redis TLS client certificate file"));
        KeyStore store = emptyStore();
        store.setKeyEntry("client", privateKey(key, chain.getFirst().getPublicKey().getAlgorithm()), IN_MEMORY,
                chain.toArray(Certificate[]::new));
        return store;
    }

    private static Collection<? extends Certificate> certificates(Path file, String what) throws GeneralSecurityException {
        Collection<? extends Certificate> certificates;
        try {
            certificates = CertificateFactory.getInstance("X.509").generateCertificates(new ByteArrayInputStream(read(file, what)));
        } catch (java.security.cert.CertificateException e) {
            throw refusal(file, what, "not a PEM certificate (" + e.getMessage() + ")");
        }
        if (certificates.isEmpty()) {
            throw refusal(file, what, "it holds no PEM certificate");
        }
        return certificates;
    }

    private static PrivateKey privateKey(Path file, String algorithm) throws GeneralSecurityException {
        String what = "Redis TLS client key file";
        Matcher pem = PRIVATE_KEY.matcher(new String(read(file, what), StandardCharsets.US_ASCII));
        if (!pem.find()) {
            throw refusal(file, what, "it holds no unencrypted PKCS #8 key (BEGIN PRIVATE KEY)");
        }
        try {
            byte[] der = Base64.getMimeDecoder().decode(pem.group(1));
            return KeyFactory.getInstance(algorithm).generatePrivate(new PKCS8EncodedKeySpec(der));
        } catch (IllegalArgumentException | java.security.spec.InvalidKeySpecException e) {
            throw refusal(file, what, "not a " + algorithm + " key matching the certificate");
        }
    }

    private static KeyStore emptyStore() throws GeneralSecurityException {
        KeyStore store = KeyStore.getInstance("PKCS12");
        try {
            store.load(null, null);
        } catch (IOException e) {
            throw new GeneralSecurityException(e);
        }
        return store;
    }

    private static byte[] read(Path file, String what) {
        try {
            return Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            throw refusal(file, what, "no such file");
        } catch (AccessDeniedException e) {
            throw refusal(file, what, "permission denied");
        } catch (IOException e) {
            throw refusal(file, what, e.getMessage());
        }
    }

    private static IllegalArgumentException refusal(Path file, String what, String why) {
        return new IllegalArgumentException("cannot read the " + what + " " + file + ": " + why);
    }
}
