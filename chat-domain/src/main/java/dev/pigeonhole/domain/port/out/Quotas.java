package dev.pigeonhole.domain.port.out;

import dev.pigeonhole.domain.model.UserId;
import dev.pigeonhole.domain.model.limits.RateLimit;
import dev.pigeonhole.domain.model.limits.RateLimits;

/**
 * Each user's buckets for the writes that are not sends (a send's bucket lives in its chat, and
 * is taken in the send's own atomic step). Kept in the store, so every instance that shares the
 * store shares the buckets too: a user cannot spread a flood over the servers behind a balancer.
 *
 * <p>A take follows {@link RateLimit#take} on the store's own clock (the in-memory store's clock,
 * Redis's {@code TIME}), so servers whose clocks disagree still agree on every bucket. A refused
 * take changes nothing; a bucket that is full again may be forgotten, so the store holds only the
 * buckets of users who wrote lately. Any method may throw
 * {@link dev.pigeonhole.domain.model.StoreUnavailableException}.
 */
public interface Quotas {

    /** One token from the user's bucket for this kind of write, under {@code limit}. */
    RateLimit.Take take(UserId user, RateLimits.Write write, RateLimit limit);
}
