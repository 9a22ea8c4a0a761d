package dev.pigeonhole.benchmarks.floors;

import dev.pigeonhole.adapter.redis.KeyLayout;
import dev.pigeonhole.adapter.redis.PublishMode;
import dev.pigeonhole.adapter.redis.RedisChats;
import dev.pigeonhole.adapter.redis.RedisDriver;
import dev.pigeonhole.adapter.redis.RedisMailboxes;
import dev.pigeonhole.adapter.redis.RedisPresenceRegistry;
import dev.pigeonhole.adapter.redis.RedisQuotas;
import dev.pigeonhole.domain.model.limits.Limits;

/**
 * The Redis adapter's port classes as the composition root builds them on a single node (the
 * tagged key layout, classic PUBLISH), over the driver the benchmark records, with keys under a
 * prefix of one workload's own.
 */
record Adapter(KeyLayout keys, RedisChats chats, RedisMailboxes mailboxes, RedisPresenceRegistry presence,
               RedisQuotas quotas) {

    /**
     * The default limits but two, which only keep the replays honest: a chat and a mailbox that
     * redis-benchmark fills with tens of thousands of joins and deliveries must not become full,
     * where every further call would take the refusal's short path. The bounds themselves cost the
     * same to check whatever their value.
     */
    static final Limits LIMITS = Limits.DEFAULTS.withMaxMembers(1_000_000).withMailboxCapacity(10_000_000);

    static Adapter over(RedisDriver driver, String prefix) {
        KeyLayout keys = KeyLayout.tagged(prefix);
        PublishMode publishing = PublishMode.of(driver, false);
        return new Adapter(keys, new RedisChats(driver, keys, LIMITS, publishing),
                new RedisMailboxes(driver, keys, LIMITS, publishing), new RedisPresenceRegistry(driver, keys),
                new RedisQuotas(driver, keys));
    }
}
