package dev.pigeonhole.app;

import dev.pigeonhole.adapter.redis.RedisClientKind;

import java.util.List;

/**
 * Two server instances on one Redis through different clients: what one writes through its
 * client, the other must read through its own, so the clients are proven to keep the same data
 * the same way and to carry each other's live events.
 */
record ClientPair(RedisClientKind one, RedisClientKind other) {

    /**
     * Every client paired with the next, the last with the first: each is once the instance that
     * writes first and once the one that reads it, with as few pairs as there are clients.
     */
    static final List<ClientPair> RING = ring(List.of(RedisClientKind.values()));

    private static List<ClientPair> ring(List<RedisClientKind> clients) {
        return clients.stream()
                .map(client -> new ClientPair(client, clients.get((clients.indexOf(client) + 1) % clients.size())))
                .toList();
    }

    /** {@code config}, on the other client. */
    AppConfig theOther(AppConfig config) {
        return config.withRedis(config.redis().withClient(other));
    }

    @Override
    public String toString() {
        return one.name().toLowerCase() + " and " + other.name().toLowerCase();
    }
}
