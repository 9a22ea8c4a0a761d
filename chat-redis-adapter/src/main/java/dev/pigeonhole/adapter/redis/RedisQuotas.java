package dev.pigeonhole.adapter.redis;

import dev.pigeonhole.domain.model.UserId;
import dev.pigeonhole.domain.model.limits.RateLimit;
import dev.pigeonhole.domain.model.limits.RateLimits;
import dev.pigeonhole.domain.port.out.Quotas;

import java.util.List;
import java.util.Objects;

/**
 * Each user's buckets as one key per kind of write ({@code user:{u}:quota:create}), holding the
 * time the bucket is full again and expiring then: a user who stopped writing leaves nothing.
 * A take is one script, {@code quota_take.lua}, which runs {@code bucket.lua}'s transliteration of
 * {@link RateLimit#take} on Redis's own clock, so every server sharing the Redis shares the
 * bucket, and concurrent takes are one at a time by Redis's nature.
 */
public final class RedisQuotas implements Quotas {

    private final RedisDriver redis;
    private final KeyLayout keys;

    public RedisQuotas(RedisDriver redis, KeyLayout keys) {
        this.redis = Objects.requireNonNull(redis, "redis");
        this.keys = Objects.requireNonNull(keys, "keys");
    }

    @Override
    public RateLimit.Take take(UserId user, RateLimits.Write write, RateLimit limit) {
        if (limit.isNone()) {
            return limit.take(0, 0);
        }
        FunctionCall call = new FunctionCall(Functions.QUOTA_TAKE, List.of(keys.quota(user, write)),
                List.of(Integer.toString(limit.burst()), Long.toString(limit.intervalMillis())));
        Reply reply = Reply.of(redis.run(call), Functions.QUOTA_TAKE);
        if (reply.is("ADMITTED")) {
            return new RateLimit.Take(true, reply.number(0), 0);
        }
        if (reply.is("REFUSED")) {
            return new RateLimit.Take(false, reply.number(0), reply.number(1));
        }
        throw reply.unexpected(Functions.QUOTA_TAKE);
    }
}
