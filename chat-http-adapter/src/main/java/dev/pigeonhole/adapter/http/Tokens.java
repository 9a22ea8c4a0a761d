package dev.pigeonhole.adapter.http;

import com.nimbusds.jwt.SignedJWT;
import dev.pigeonhole.domain.model.InvalidIdException;
import dev.pigeonhole.domain.model.UserId;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.text.ParseException;
import java.time.Duration;
import java.time.InstantSource;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Bearer tokens: JWTs naming the user, checked on every request by one of three kinds of key.
 * Under a shared HS256 secret this server issues them too (dev login), and every instance that
 * shares the secret accepts every other's, so a client may be sent to any of them. Under an
 * identity provider's public keys (a JWKS URL, or a key file) it only checks them: it holds no
 * key to sign with. Routes see one seam either way: {@link #verify}.
 */
public final class Tokens {

    /** HS256 wants a key at least as long as its hash: 256 bits. */
    public static final int MIN_SECRET_BYTES = 32;
    public static final Duration DEFAULT_LIFETIME = Duration.ofHours(12);
    /**
     * A compact JWS as a token must be: three base64url segments, unpadded. The parser forgives
     * more (padding, stray characters it skips while decoding), so an altered token would
     * otherwise still verify as the token it was altered from.
     */
    private static final Pattern COMPACT_JWS = Pattern.compile("[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+");

    /** How a parsed token's signature and claims are checked: the user it names, or a problem. */
    interface Verifier {
        UserId verify(SignedJWT jwt);
    }

    private final Verifier verifier;
    /** Empty when an identity provider signs the tokens. */
    private final Optional<SharedSecret> issuer;

    private Tokens(Verifier verifier, Optional<SharedSecret> issuer) {
        this.verifier = verifier;
        this.issuer = issuer;
    }

    /** Tokens under a configured secret, as every instance of one deployment shares it. */
    public static Tokens withSecret(String secret, Duration lifetime, InstantSource clock) {
        byte[] bytes = Objects.requireNonNull(secret, "secret").getBytes(StandardCharsets.UTF_8);
        return shared(new SharedSecret(bytes, lifetime, Objects.requireNonNull(clock, "clock")));
    }

    /** Tokens under a secret made up for this process: they die with it, and no other instance takes them. */
    public static Tokens withRandomSecret(Duration lifetime, InstantSource clock) {
        byte[] secret = new byte[MIN_SECRET_BYTES];
        new SecureRandom().nextBytes(secret);
        return shared(new SharedSecret(secret, lifetime, Objects.requireNonNull(clock, "clock")));
    }

    /**
     * Tokens an identity provider signs with the keys it publishes at {@code jwksUrl} (RS256 or
     * ES256), fetched when first needed and as {@link JwksFetching} says after that.
     */
    public static Tokens fromJwks(URI jwksUrl, JwksFetching fetching, IdentityProvider provider, InstantSource clock) {
        JwksKeys keys = new JwksKeys(jwksUrl, fetching);
        return new Tokens(new ProviderTokens(keys.selector(), keys::unavailable, provider, clock), Optional.empty());
    }

    /**
     * Tokens an identity provider signs with the key(s) given here as text: a PEM public key
     * (RSA or EC P-256) or certificate, a JWK, or a JWK set ({@link PublicKeys}).
     */
    public static Tokens fromPublicKeys(String text, IdentityProvider provider, InstantSource clock) {
        return new Tokens(new ProviderTokens(PublicKeys.parse(text).selector(), () -> false, provider, clock),
                Optional.empty());
    }

    private static Tokens shared(SharedSecret secret) {
        return new Tokens(secret, Optional.of(secret));
    }

    /** Whether this server issues tokens itself, which only a shared secret lets it. */
    public boolean issues() {
        return issuer.isPresent();
    }

    /** A token for {@code user}; only under a shared secret, since an identity provider's keys sign nothing here. */
    public String issue(UserId user) {
        return issuer.orElseThrow(() -> new IllegalStateException(
                "tokens come from the identity provider; this server issues none")).issue(user);
    }

    /** The user a token names, or a problem saying why it is not accepted (401, or 503 when the keys cannot be had). */
    UserId verify(String token) {
        if (!COMPACT_JWS.matcher(token).matches()) {
            throw Problem.unauthorized("the bearer token is not a signed JWT: it must be three base64url segments "
                    + "without padding");
        }
        try {
            return verifier.verify(SignedJWT.parse(token));
        } catch (ParseException e) {
            throw Problem.unauthorized("the bearer token is not a signed JWT");
        }
    }

    /** The user a token's claim names, under the domain's rules for every user name (so {@code Casey} is {@code casey}). */
    static UserId user(String claimed) {
        try {
            return UserId.of(claimed);
        } catch (InvalidIdException e) {
            throw Problem.unauthorized("the bearer token names no valid user: " + e.getMessage());
        }
    }
}
