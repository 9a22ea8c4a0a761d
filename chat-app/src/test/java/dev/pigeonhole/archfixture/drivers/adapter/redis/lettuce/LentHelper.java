package dev.pigeonhole.archfixture.drivers.adapter.redis.lettuce;

/** Harmless on its own; {@code BorrowingDriver} makes it a shared dependency. */
public record LentHelper(String name) {
}
