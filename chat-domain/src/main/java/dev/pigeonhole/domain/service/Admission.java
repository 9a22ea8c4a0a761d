package dev.pigeonhole.domain.service;

import dev.pigeonhole.domain.model.RateLimitedException;
import dev.pigeonhole.domain.model.UserId;
import dev.pigeonhole.domain.model.limits.RateLimit;
import dev.pigeonhole.domain.model.limits.RateLimits;
import dev.pigeonhole.domain.port.out.Quotas;

import java.util.Objects;

/**
 * Lets a user's rarer write (create, invite, deliver) through only if its bucket has a token,
 * taken before the write, so a refused write changes nothing. A send's token is taken inside the
 * store's own step instead ({@link dev.pigeonhole.domain.port.out.Chats#send}).
 */
public final class Admission {

    private final Quotas quotas;
    private final RateLimits rates;

    public Admission(Quotas quotas, RateLimits rates) {
        this.quotas = Objects.requireNonNull(quotas, "quotas");
        this.rates = Objects.requireNonNull(rates, "rates");
    }

    /** @throws RateLimitedException if the user's bucket for this write is empty */
    public void admit(UserId user, RateLimits.Write write) {
        RateLimit limit = rates.of(write);
        RateLimit.Take take = quotas.take(user, write, limit);
        if (!take.admitted()) {
            throw limit.refusal(write, take.retryAfter());
        }
    }
}
