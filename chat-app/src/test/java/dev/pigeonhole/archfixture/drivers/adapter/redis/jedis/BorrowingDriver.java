package dev.pigeonhole.archfixture.drivers.adapter.redis.jedis;

import dev.pigeonhole.archfixture.drivers.adapter.redis.lettuce.LentHelper;

/** Broken on purpose: one driver borrows from the other. */
public record BorrowingDriver(LentHelper helper) {
}
