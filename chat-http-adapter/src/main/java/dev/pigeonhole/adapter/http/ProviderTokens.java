package dev.pigeonhole.adapter.http;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.KeySourceException;
import com.nimbusds.jose.jwk.source.RateLimitReachedException;
import com.nimbusds.jose.proc.BadJOSEException;
import com.nimbusds.jose.proc.BadJWSException;
import com.nimbusds.jose.proc.DefaultJOSEObjectTypeVerifier;
import com.nimbusds.jose.proc.JWSKeySelector;
import com.nimbusds.jose.proc.SecurityContext;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import com.nimbusds.jwt.proc.BadJWTException;
import com.nimbusds.jwt.proc.DefaultJWTClaimsVerifier;
import com.nimbusds.jwt.proc.DefaultJWTProcessor;
import dev.pigeonhole.domain.model.UserId;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Arrays;
import java.util.Date;
import java.util.HashSet;
import java.util.Set;
import java.util.function.BooleanSupplier;

/**
 * Tokens an identity provider signed, checked with its public keys: RS256 or ES256 and nothing
 * else (neither {@code none} nor an HMAC keyed with a public key gets through), {@code exp}
 * required, {@code exp} and {@code nbf} with a minute's grace for clocks that differ, the issuer
 * and audience when configured, and the user in the configured claim under the domain's rules for
 * user names. A bad token is a 401 saying what is wrong with it; keys that cannot be had are a 503,
 * since that is no fault of the client's.
 */
final class ProviderTokens implements Tokens.Verifier {

    static final Set<JWSAlgorithm> ALGORITHMS = Set.of(JWSAlgorithm.RS256, JWSAlgorithm.ES256);
    static final Duration CLOCK_SKEW = Duration.ofSeconds(60);
    /** Plain JWTs, and access tokens as RFC 9068 types them; a header without a type is taken too. */
    private static final Set<JOSEObjectType> TYPES = new HashSet<>(
            Arrays.asList(JOSEObjectType.JWT, new JOSEObjectType("at+jwt"), null));
    private static final int RETRY_AFTER_SECONDS = 5;

    private final DefaultJWTProcessor<SecurityContext> processor = new DefaultJWTProcessor<>();
    private final BooleanSupplier keysUnavailable;
    private final IdentityProvider provider;
    private final InstantSource clock;

    ProviderTokens(JWSKeySelector<SecurityContext> keys, BooleanSupplier keysUnavailable, IdentityProvider provider,
                   InstantSource clock) {
        this.keysUnavailable = keysUnavailable;
        this.provider = provider;
        this.clock = clock;
        processor.setJWSKeySelector(keys);
        processor.setJWSTypeVerifier(new DefaultJOSEObjectTypeVerifier<>(TYPES));
        processor.setJWTClaimsSetVerifier(new Claims());
    }

    @Override
    public UserId verify(SignedJWT jwt) {
        JWSAlgorithm algorithm = jwt.getHeader().getAlgorithm();
        if (!ALGORITHMS.contains(algorithm)) {
            throw Problem.unauthorized("the bearer token must be signed with RS256 or ES256, not " + algorithm);
        }
        if (!TYPES.contains(jwt.getHeader().getType())) {
            throw Problem.unauthorized("the bearer token's type must be JWT or at+jwt, not " + jwt.getHeader().getType());
        }
        JWTClaimsSet claims;
        try {
            claims = processor.process(jwt, null);
        } catch (BadJWTException e) {
            // The claims verifier below words these.
            throw Problem.unauthorized(e.getMessage());
        } catch (BadJWSException e) {
            throw Problem.unauthorized("the bearer token's signature does not match the identity provider's key");
        } catch (BadJOSEException e) {
            throw unknownKey(jwt);
        } catch (RateLimitReachedException e) {
            // The keys were fetched a moment ago; a fetch now may not be made, and would have found nothing new.
            throw keysUnavailable.getAsBoolean() ? unavailable() : unknownKey(jwt);
        } catch (KeySourceException e) {
            throw unavailable();
        } catch (JOSEException e) {
            throw Problem.unauthorized("the bearer token cannot be checked");
        }
        Object user = claims.getClaim(provider.userClaim());
        if (!(user instanceof String name)) {
            throw Problem.unauthorized("the bearer token's '" + provider.userClaim() + "' claim is not a user name");
        }
        return Tokens.user(name);
    }

    private static Problem unknownKey(SignedJWT jwt) {
        String kid = jwt.getHeader().getKeyID();
        return Problem.unauthorized("no key of the identity provider's checks this token"
                + (kid == null ? "" : " (kid '" + printable(kid) + "')") + "; get a new token");
    }

    private static Problem unavailable() {
        return Problem.retryLater("auth-unavailable", "Sign-in unavailable",
                "the identity provider's keys cannot be had just now, so no token can be checked; try again shortly",
                RETRY_AFTER_SECONDS);
    }

    /** A key id is the client's text: quoted short and plain. */
    private static String printable(String text) {
        String plain = text.replaceAll("[^A-Za-z0-9._~+/=-]", "?");
        return plain.length() > 64 ? plain.substring(0, 64) + "…" : plain;
    }

    /** Nimbus's checks of the claims, on the server's clock, each refusal in this service's words. */
    private final class Claims extends DefaultJWTClaimsVerifier<SecurityContext> {

        Claims() {
            super(provider.audience().map(Set::of).orElse(null),
                    provider.issuer().map(issuer -> new JWTClaimsSet.Builder().issuer(issuer).build())
                            .orElse(new JWTClaimsSet.Builder().build()),
                    Set.of("exp", provider.userClaim()), null);
            setMaxClockSkew((int) CLOCK_SKEW.toSeconds());
        }

        @Override
        protected Date currentTime() {
            return Date.from(clock.instant());
        }

        @Override
        public void verify(JWTClaimsSet claims, SecurityContext context) throws BadJWTException {
            try {
                super.verify(claims, context);
            } catch (BadJWTException e) {
                throw new BadJWTException(why(claims), e);
            }
        }

        private String why(JWTClaimsSet claims) {
            Instant now = clock.instant();
            Date expires = claims.getExpirationTime();
            Date notBefore = claims.getNotBeforeTime();
            if (expires == null) {
                return "the bearer token has no expiry (exp); the identity provider must set one";
            }
            if (claims.getClaim(provider.userClaim()) == null) {
                return "the bearer token names no user: it has no '" + provider.userClaim() + "' claim";
            }
            if (!now.isBefore(expires.toInstant().plus(CLOCK_SKEW))) {
                return "the bearer token expired at " + expires.toInstant() + "; get a new one";
            }
            if (notBefore != null && now.isBefore(notBefore.toInstant().minus(CLOCK_SKEW))) {
                return "the bearer token is not valid before " + notBefore.toInstant();
            }
            if (provider.issuer().isPresent() && !provider.issuer().get().equals(claims.getIssuer())) {
                return "the bearer token was not issued by " + provider.issuer().get();
            }
            if (provider.audience().isPresent()
                    && (claims.getAudience() == null || !claims.getAudience().contains(provider.audience().get()))) {
                return "the bearer token is not meant for this service: its audience (aud) lacks "
                        + provider.audience().get();
            }
            return "the bearer token's claims are not accepted";
        }
    }
}
