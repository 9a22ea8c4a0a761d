package dev.pigeonhole.adapter.http;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jose.crypto.MACVerifier;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import dev.pigeonhole.domain.model.InvalidIdException;
import dev.pigeonhole.domain.model.UserId;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.text.ParseException;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Date;
import java.util.Objects;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * Bearer tokens: JWTs signed with HS256 under one secret, naming the user in {@code sub}. Every
 * server instance that shares the secret accepts every other's tokens, so a client may be sent
 * to any of them.
 */
public final class Tokens {

    /** HS256 wants a key at least as long as its hash: 256 bits. */
    public static final int MIN_SECRET_BYTES = 32;
    public static final Duration DEFAULT_LIFETIME = Duration.ofHours(12);
    private static final String ISSUER = "pigeonhole";
    /**
     * A compact JWS as this service issues it: three base64url segments, unpadded. The parser
     * forgives more (padding, stray characters it skips while decoding), so an altered token
     * would otherwise still verify as the token it was altered from.
     */
    private static final Pattern COMPACT_JWS = Pattern.compile("[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+");

    private final byte[] secret;
    private final Duration lifetime;
    private final InstantSource clock;
    private final MACSigner signer;
    private final MACVerifier verifier;

    private Tokens(byte[] secret, Duration lifetime, InstantSource clock) {
        if (secret.length < MIN_SECRET_BYTES) {
            throw new IllegalArgumentException("the token secret must be at least " + MIN_SECRET_BYTES
                    + " bytes (256 bits) for HS256; it is " + secret.length);
        }
        if (lifetime.isNegative() || lifetime.isZero()) {
            throw new IllegalArgumentException("the token lifetime must be positive, not " + lifetime);
        }
        this.secret = secret.clone();
        this.lifetime = lifetime;
        this.clock = Objects.requireNonNull(clock, "clock");
        try {
            this.signer = new MACSigner(this.secret);
            this.verifier = new MACVerifier(this.secret);
        } catch (JOSEException e) {
            throw new IllegalArgumentException("the token secret cannot key HS256: " + e.getMessage(), e);
        }
    }

    /** Tokens under a configured secret, as every instance of one deployment shares it. */
    public static Tokens withSecret(String secret, Duration lifetime, InstantSource clock) {
        return new Tokens(Objects.requireNonNull(secret, "secret").getBytes(StandardCharsets.UTF_8), lifetime, clock);
    }

    /** Tokens under a secret made up for this process: they die with it, and no other instance takes them. */
    public static Tokens withRandomSecret(Duration lifetime, InstantSource clock) {
        byte[] secret = new byte[MIN_SECRET_BYTES];
        new SecureRandom().nextBytes(secret);
        return new Tokens(secret, lifetime, clock);
    }

    public String issue(UserId user) {
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

    /** The user a token names, or a 401 problem saying why it is not accepted. */
    UserId verify(String token) {
        if (!COMPACT_JWS.matcher(token).matches()) {
            throw Problem.unauthorized("the bearer token is not a signed JWT: it must be three base64url segments "
                    + "without padding");
        }
        SignedJWT jwt;
        try {
            jwt = SignedJWT.parse(token);
        } catch (ParseException e) {
            throw Problem.unauthorized("the bearer token is not a signed JWT");
        }
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
        try {
            return UserId.of(claims.getSubject());
        } catch (InvalidIdException e) {
            throw Problem.unauthorized("the bearer token names no valid user");
        }
    }
}
