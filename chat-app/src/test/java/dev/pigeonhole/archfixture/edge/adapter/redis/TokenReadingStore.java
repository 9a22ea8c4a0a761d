package dev.pigeonhole.archfixture.edge.adapter.redis;

import com.nimbusds.jwt.SignedJWT;

/** Broken on purpose: a store that decides who the caller is. */
public final class TokenReadingStore {
    public String user(SignedJWT token) throws java.text.ParseException {
        return token.getJWTClaimsSet().getSubject();
    }
}
