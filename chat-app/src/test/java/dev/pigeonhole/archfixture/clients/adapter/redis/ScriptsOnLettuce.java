package dev.pigeonhole.archfixture.clients.adapter.redis;

import io.lettuce.core.RedisClient;

/** Broken on purpose: the shared algorithm holds a Lettuce client. */
public record ScriptsOnLettuce(RedisClient client) {
}
