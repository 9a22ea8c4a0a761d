package dev.pigeonhole.archfixture.clients.adapter.redis;

import redis.clients.jedis.RedisClient;

/** Broken on purpose: the shared algorithm holds a Jedis client. */
public record ScriptsOnJedis(RedisClient client) {
}
