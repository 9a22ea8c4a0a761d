package dev.pigeonhole.adapter.http;

import java.util.Objects;
import java.util.Optional;

/**
 * What a token from an identity provider must say besides its signature: who issued it and for
 * whom, when each is configured, and which claim names the user.
 *
 * @param issuer    the {@code iss} a token must carry; empty accepts any
 * @param audience  a value the token's {@code aud} must hold; empty accepts any
 * @param userClaim the claim naming the user, {@code sub} unless the provider puts it elsewhere
 */
public record IdentityProvider(Optional<String> issuer, Optional<String> audience, String userClaim) {

    public static final String DEFAULT_USER_CLAIM = "sub";

    public IdentityProvider {
        Objects.requireNonNull(issuer, "issuer");
        Objects.requireNonNull(audience, "audience");
        if (userClaim == null || userClaim.isBlank()) {
            throw new IllegalArgumentException("the user claim must name a claim, such as " + DEFAULT_USER_CLAIM);
        }
    }

    /** Any issuer, any audience, the user in {@code sub}. */
    public static IdentityProvider anyIssuer() {
        return new IdentityProvider(Optional.empty(), Optional.empty(), DEFAULT_USER_CLAIM);
    }

    public IdentityProvider withIssuer(String value) {
        return new IdentityProvider(Optional.of(value), audience, userClaim);
    }

    public IdentityProvider withAudience(String value) {
        return new IdentityProvider(issuer, Optional.of(value), userClaim);
    }

    public IdentityProvider withUserClaim(String value) {
        return new IdentityProvider(issuer, audience, value);
    }
}
