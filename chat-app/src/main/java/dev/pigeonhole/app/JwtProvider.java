package dev.pigeonhole.app;

import dev.pigeonhole.adapter.http.IdentityProvider;
import dev.pigeonhole.adapter.http.JwksFetching;
import dev.pigeonhole.adapter.http.Tokens;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.InstantSource;
import java.util.Objects;
import java.util.Optional;

/**
 * Tokens from an identity provider: where its public keys come from (a JWKS URL, or the text of a
 * public key file, exactly one), and what its tokens must say besides.
 *
 * @param jwksUrl    the provider's key set, https (or http on a loopback host, for a provider on the same machine)
 * @param publicKeys the provider's key(s) as a file held them, already read
 * @param claims     the issuer and audience to insist on, and the claim naming the user
 */
public record JwtProvider(Optional<URI> jwksUrl, Optional<String> publicKeys, IdentityProvider claims) {

    public JwtProvider {
        Objects.requireNonNull(claims, "claims");
        if (jwksUrl.isPresent() == publicKeys.isPresent()) {
            throw new IllegalArgumentException("an identity provider's keys come from one place: --jwt-jwks-url or "
                    + "--jwt-public-key-file");
        }
        jwksUrl.ifPresent(JwtProvider::checkJwksUrl);
        // Read now, so a key file that holds no usable key stops the start before any store is reached.
        publicKeys.ifPresent(text -> Tokens.fromPublicKeys(text, claims, InstantSource.system()));
    }

    public static JwtProvider fromJwks(URI url, IdentityProvider claims) {
        return new JwtProvider(Optional.of(url), Optional.empty(), claims);
    }

    public static JwtProvider fromPublicKeys(String text, IdentityProvider claims) {
        return new JwtProvider(Optional.empty(), Optional.of(text), claims);
    }

    /** The URL as an operator writes it, or a one-line refusal. */
    static URI jwksUrl(String value) {
        try {
            URI url = new URI(value.strip());
            checkJwksUrl(url);
            return url;
        } catch (URISyntaxException e) {
            throw notAJwksUrl(value);
        }
    }

    /**
     * Keys fetched in the clear could be swapped on the way for an attacker's, who could then sign
     * in as anyone: so https, or http only where the way is this machine's loopback.
     */
    private static void checkJwksUrl(URI url) {
        if (url.getHost() == null) {
            throw notAJwksUrl(url.toString());
        }
        boolean https = "https".equalsIgnoreCase(url.getScheme());
        boolean loopbackHttp = "http".equalsIgnoreCase(url.getScheme()) && ServerConfig.isLoopback(url.getHost());
        if (!https && !loopbackHttp) {
            throw notAJwksUrl(url.toString());
        }
    }

    private static IllegalArgumentException notAJwksUrl(String value) {
        return new IllegalArgumentException("the JWKS URL must be https (http only on a loopback host), such as "
                + "https://id.example.com/.well-known/jwks.json, not " + value);
    }

    Tokens tokens(InstantSource clock) {
        return jwksUrl.map(url -> Tokens.fromJwks(url, JwksFetching.DEFAULTS, claims, clock))
                .orElseGet(() -> Tokens.fromPublicKeys(publicKeys.orElseThrow(), claims, clock));
    }

    /** Where the keys come from, for the log: the URL, or that a file gave them. */
    String describe() {
        return jwksUrl.map(url -> "keys from " + url).orElse("keys from the public key file");
    }
}
