package dev.pigeonhole.adapter.http;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.proc.JWSKeySelector;
import com.nimbusds.jose.proc.SecurityContext;
import com.nimbusds.jose.util.X509CertUtils;
import java.security.Key;
import java.security.KeyFactory;
import java.security.PublicKey;
import java.security.cert.X509Certificate;
import java.security.interfaces.ECPublicKey;
import java.security.interfaces.RSAPublicKey;
import java.security.spec.X509EncodedKeySpec;
import java.text.ParseException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Objects;

/**
 * An identity provider's public keys given as a file's text, in one of four forms: a PEM public
 * key ({@code BEGIN PUBLIC KEY}, RSA or EC P-256), a PEM certificate ({@code BEGIN CERTIFICATE}),
 * a JWK (a JSON object with {@code kty}) or a JWK set (a JSON object with {@code keys}). A private
 * key is refused: a server that only checks tokens has no business holding one.
 */
final class PublicKeys {

    private static final String PEM_KEY = "-----BEGIN PUBLIC KEY-----";
    private static final String PEM_CERTIFICATE = "-----BEGIN CERTIFICATE-----";

    private final List<JWK> keys;

    private PublicKeys(List<JWK> keys) {
        this.keys = List.copyOf(keys);
    }

    static PublicKeys parse(String text) {
        String trimmed = Objects.requireNonNull(text, "text").strip();
        List<JWK> keys = trimmed.startsWith("{") ? json(trimmed) : List.of(pem(trimmed));
        for (JWK key : keys) {
            if (key.isPrivate()) {
                throw new IllegalArgumentException("the public key file holds a private key; give only the public one");
            }
            boolean usable = key instanceof RSAKey || key instanceof ECKey ec && Curve.P_256.equals(ec.getCurve());
            if (!usable) {
                throw new IllegalArgumentException("the public key file holds a " + key.getKeyType()
                        + " key; RS256 takes an RSA key and ES256 an EC key on P-256");
            }
        }
        if (keys.isEmpty()) {
            throw new IllegalArgumentException("the public key file's key set holds no key");
        }
        return new PublicKeys(keys);
    }

    /**
     * The keys that can check a token's signature: of its algorithm's type, and with its {@code kid}
     * unless a key has none (a PEM key never has), since a file given for one provider needs no names.
     */
    JWSKeySelector<SecurityContext> selector() {
        return (header, context) -> {
            List<Key> matching = new ArrayList<>();
            String kid = header.getKeyID();
            for (JWK key : keys) {
                boolean named = kid == null || key.getKeyID() == null || kid.equals(key.getKeyID());
                if (!named) {
                    continue;
                }
                try {
                    if (JWSAlgorithm.RS256.equals(header.getAlgorithm()) && key instanceof RSAKey rsa) {
                        matching.add(rsa.toRSAPublicKey());
                    } else if (JWSAlgorithm.ES256.equals(header.getAlgorithm()) && key instanceof ECKey ec) {
                        matching.add(ec.toECPublicKey());
                    }
                } catch (JOSEException e) {
                    // A key that cannot become a Java key matches nothing.
                }
            }
            return matching;
        };
    }

    private static List<JWK> json(String text) {
        try {
            return text.contains("\"keys\"") ? JWKSet.parse(text).getKeys() : List.of(JWK.parse(text));
        } catch (ParseException e) {
            throw new IllegalArgumentException("the public key file is JSON but no JWK or JWK set: " + e.getMessage());
        }
    }

    private static JWK pem(String text) {
        if (text.startsWith(PEM_CERTIFICATE)) {
            X509Certificate certificate = X509CertUtils.parse(text);
            if (certificate == null) {
                throw new IllegalArgumentException("the public key file's certificate cannot be read");
            }
            return fromKey(certificate.getPublicKey());
        }
        if (!text.startsWith(PEM_KEY)) {
            throw new IllegalArgumentException("the public key file must hold a PEM public key (" + PEM_KEY
                    + "), a PEM certificate, a JWK or a JWK set");
        }
        String body = text.substring(PEM_KEY.length(), text.indexOf("-----END", PEM_KEY.length()) < 0
                ? text.length() : text.indexOf("-----END", PEM_KEY.length())).replaceAll("\\s", "");
        byte[] der;
        try {
            der = Base64.getDecoder().decode(body);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("the public key file's PEM body is not base64");
        }
        for (String algorithm : List.of("RSA", "EC")) {
            try {
                return fromKey(KeyFactory.getInstance(algorithm).generatePublic(new X509EncodedKeySpec(der)));
            } catch (java.security.GeneralSecurityException e) {
                // Try the other kind.
            }
        }
        throw new IllegalArgumentException("the public key file's PEM key is neither an RSA nor an EC public key");
    }

    private static JWK fromKey(PublicKey key) {
        if (key instanceof RSAPublicKey rsa) {
            return new RSAKey.Builder(rsa).build();
        }
        if (key instanceof ECPublicKey ec) {
            Curve curve = Curve.forECParameterSpec(ec.getParams());
            if (curve == null) {
                throw new IllegalArgumentException("the public key file's EC key is on a curve ES256 does not use");
            }
            return new ECKey.Builder(curve, ec).build();
        }
        throw new IllegalArgumentException("the public key file's key is " + key.getAlgorithm() + ", not RSA or EC");
    }
}
