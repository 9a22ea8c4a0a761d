package dev.pigeonhole.archfixture.drivers.adapter.redis;

import dev.pigeonhole.archfixture.drivers.adapter.redis.jedis.BorrowingDriver;

/** Broken on purpose: the shared algorithm reaches down into one driver. */
public record ClientPickingKeys(BorrowingDriver driver) {
}
