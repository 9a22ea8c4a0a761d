package dev.pigeonhole.adapter.redis.lettuce;

import dev.pigeonhole.adapter.redis.RedisSettings;

import java.util.concurrent.TimeUnit;

/**
 * Run by {@link LettuceTransportTest} in a JVM of its own, since Lettuce fixes its transport once
 * per process: connects one connector to the Redis at {@code args[0]} and prints the transport
 * its connection runs on.
 */
final class TransportProbe {

    private TransportProbe() {
    }

    public static void main(String[] args) throws Exception {
        Connector<?> connector = Connector.of(RedisSettings.of(RedisSettings.Endpoint.single(args[0]))
                .withClientName("pigeonhole-transport-probe"));
        try {
            connector.connection().get(10, TimeUnit.SECONDS);
            System.out.println(LettuceTransportTest.REPORT + connector.transport().orElseThrow());
        } finally {
            connector.shutdown();
        }
    }
}
