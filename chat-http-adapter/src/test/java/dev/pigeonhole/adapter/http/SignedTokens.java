package dev.pigeonhole.adapter.http;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.JWSSigner;
import com.nimbusds.jose.crypto.ECDSASigner;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;

/** Tokens as an identity provider signs them: RS256 with an RSA key, ES256 with an EC one, its kid in the header. */
public final class SignedTokens {

    private SignedTokens() {
    }

    /** Claims for {@code user} valid for an hour from {@code now}. */
    public static JWTClaimsSet.Builder claims(String user, Instant now) {
        return new JWTClaimsSet.Builder().subject(user).issueTime(Date.from(now))
                .expirationTime(Date.from(now.plus(Duration.ofHours(1))));
    }

    public static String sign(JWK key, JWTClaimsSet claims) {
        try {
            JWSAlgorithm algorithm = key instanceof ECKey ? JWSAlgorithm.ES256 : JWSAlgorithm.RS256;
            JWSSigner signer = key instanceof ECKey ec ? new ECDSASigner(ec) : new RSASSASigner((RSAKey) key);
            SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(algorithm).keyID(key.getKeyID()).build(), claims);
            jwt.sign(signer);
            return jwt.serialize();
        } catch (JOSEException e) {
            throw new IllegalStateException(e);
        }
    }
}
