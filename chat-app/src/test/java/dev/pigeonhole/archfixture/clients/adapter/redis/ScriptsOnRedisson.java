package dev.pigeonhole.archfixture.clients.adapter.redis;

import org.redisson.api.RedissonClient;

/** Broken on purpose: the shared algorithm holds a Redisson client. */
public record ScriptsOnRedisson(RedissonClient client) {
}
