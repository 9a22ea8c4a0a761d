package dev.pigeonhole.archfixture.adapters.adapter.redis;

import dev.pigeonhole.archfixture.adapters.adapter.inmemory.InMemoryThings;

/** Broken on purpose: one adapter leans on another. */
public record RedisThings(InMemoryThings fallback) {
}
