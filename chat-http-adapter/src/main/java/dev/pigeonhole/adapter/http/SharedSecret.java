package dev.pigeonhole.adapter.http;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jose.crypto.MACVerifier;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import dev.pigeonhole.domain.model.UserId;
import java.text.ParseException;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Date;
import java.util.UUID;

/**
 * Tokens under one HS256 secret that every instance shares: this server issues them (dev login)
 * and checks them, and so does every other instance with the secret.
 */
final class SharedSecret implements Tokens.Verifier {

    private static final String ISSUER = "pigeonhole";

    private final Duration lifetime;
    private final InstantSource clock;
    private final MACSigner signer;
    private final MACVerifier verifier;

    SharedSecret(byte[] secret, Duration lifetime, InstantSource clock) {
        if (secret.length < Tokens.MIN_SECRET_BYTES) {
            throw new IllegalArgumentException("the token secret must be at least " + Tokens.MIN_SECRET_BYTES
                    + " bytes (256 bits) for HS256; it is " + secret.length);
        }
        if (lifetime.isNegative() || lifetime.isZero()) {
            throw new IllegalArgumentException("the token lifetime must be positive, not " + lifetime);
        }
        this.lifetime = lifetime;
        this.clock = clock;
        try {
            this.signer = new MACSigner(secret.clone());
            this.verifier = new MACVerifier(secret.clone());
        } catch (JOSEException e) {
            throw new IllegalArgumentException("the token secret cannot key HS256: " + e.getMessage(), e);
        }
    }

    String issue(UserId user) {
        Instant now = clock.instant();
        JWTClaimsSet claims = new JWTClaimsSet.Builder()
                .issuer(ISSUER)
                .subject(user.value())
                .issueTime(Date.from(now))
                .expirationTime(Date.from(now.plus(lifetime)))
                .jwtID(UUID.randomUUID().toString())
                .build();
        SignedJWT jwt = new SignedJWT(new JWSHeader(JWSAlgorithm.HS256), claims);
        try {
            jwt.sign(signer);
        } catch (JOSEException e) {
            throw new IllegalStateException("signing a token failed", e);
        }
        return jwt.serialize();
    }

    @Override
    public UserId verify(SignedJWT jwt) {
        // Pinning the algorithm stops a token from choosing how it is checked ("none", RS256 with our key...).
        if (!JWSAlgorithm.HS256.equals(jwt.getHeader().getAlgorithm())) {
            throw Problem.unauthorized("the bearer token must be signed with HS256");
        }
        JWTClaimsSet claims;
        try {
            if (!jwt.verify(verifier)) {
                throw Problem.unauthorized("the bearer token's signature does not match; sign in again");
            }
            claims = jwt.getJWTClaimsSet();
        } catch (JOSEException | ParseException e) {
            throw Problem.unauthorized("the bearer token cannot be checked; sign in again");
        }
        Date expires = claims.getExpirationTime();
        if (!ISSUER.equals(claims.getIssuer()) || expires == null || claims.getSubject() == null) {
            throw Problem.unauthorized("the bearer token was not issued by this service");
        }
        if (!clock.instant().isBefore(expires.toInstant())) {
            throw Problem.unauthorized("the bearer token expired at " + expires.toInstant() + "; sign in again");
        }
        return Tokens.user(claims.getSubject());
    }
}
