package dev.pigeonhole.adapter.http;

import com.nimbusds.jose.KeySourceException;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.source.JWKSetCacheRefreshEvaluator;
import com.nimbusds.jose.jwk.source.JWKSetSource;
import com.nimbusds.jose.jwk.source.JWKSource;
import com.nimbusds.jose.jwk.source.JWKSourceBuilder;
import com.nimbusds.jose.jwk.source.URLBasedJWKSetSource;
import com.nimbusds.jose.proc.JWSKeySelector;
import com.nimbusds.jose.proc.JWSVerificationKeySelector;
import com.nimbusds.jose.proc.SecurityContext;
import com.nimbusds.jose.util.DefaultResourceRetriever;
import java.io.IOException;
import java.net.MalformedURLException;
import java.net.URI;
import java.net.URL;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An identity provider's keys, fetched from its JWKS URL through Nimbus's own key source: cached
 * for {@link JwksFetching#cacheLifetime()}, fetched again at once when a token names a key the
 * cached set does not hold (a rotation), and never more than the rate limit allows. Each fetch that
 * fails is one warning line; the rate limit bounds those lines as it bounds the fetches.
 */
final class JwksKeys {

    private static final Logger LOG = LoggerFactory.getLogger(JwksKeys.class);

    private final URI url;
    private final JWKSource<SecurityContext> source;
    /** Whether the last fetch failed: a token the rate limit then turns away is the provider's fault, not the token's. */
    private volatile boolean failing;

    JwksKeys(URI url, JwksFetching fetching) {
        this.url = url;
        DefaultResourceRetriever retriever = new DefaultResourceRetriever(
                (int) fetching.connectTimeout().toMillis(), (int) fetching.readTimeout().toMillis(), fetching.maxBytes());
        JWKSetSource<SecurityContext> fetched = new URLBasedJWKSetSource<>(toUrl(url), retriever);
        long waitForFetch = fetching.connectTimeout().plus(fetching.readTimeout()).toMillis() + 1000;
        this.source = JWKSourceBuilder.create(new Watched(fetched))
                .cache(fetching.cacheLifetime().toMillis(), waitForFetch)
                // Ahead of expiry would take a thread of its own; a fetch on expiry costs one request a few ms.
                .refreshAheadCache(false)
                .rateLimited(fetching.minRefetchInterval().toMillis())
                .build();
    }

    /** RS256 and ES256 keys from the set, matched by the token's {@code kid}. */
    JWSKeySelector<SecurityContext> selector() {
        return new JWSVerificationKeySelector<>(ProviderTokens.ALGORITHMS, source);
    }

    /** Whether the key set could not be had when last fetched. */
    boolean unavailable() {
        return failing;
    }

    private static URL toUrl(URI url) {
        try {
            return url.toURL();
        } catch (MalformedURLException | IllegalArgumentException e) {
            throw new IllegalArgumentException("the JWKS URL is not a URL: " + url);
        }
    }

    /** The fetches themselves, watched: the outcome of the last one, and a line for each that failed. */
    private final class Watched implements JWKSetSource<SecurityContext> {

        private final JWKSetSource<SecurityContext> fetched;

        Watched(JWKSetSource<SecurityContext> fetched) {
            this.fetched = fetched;
        }

        @Override
        public JWKSet getJWKSet(JWKSetCacheRefreshEvaluator refresh, long now, SecurityContext context)
                throws KeySourceException {
            try {
                JWKSet keys = fetched.getJWKSet(refresh, now, context);
                failing = false;
                return keys;
            } catch (KeySourceException e) {
                failing = true;
                LOG.warn("the identity provider's keys could not be fetched from {}: {}", url, reason(e));
                throw e;
            }
        }

        @Override
        public void close() throws IOException {
            fetched.close();
        }
    }

    private static String reason(Throwable failure) {
        StringBuilder reason = new StringBuilder(String.valueOf(failure.getMessage()));
        for (Throwable cause = failure.getCause(); cause != null; cause = cause.getCause()) {
            if (cause.getMessage() != null && !reason.toString().contains(cause.getMessage())) {
                reason.append(": ").append(cause.getMessage());
            }
        }
        return reason.toString();
    }
}
