package dev.pigeonhole.adapter.redis;


import dev.pigeonhole.testsupport.LoopbackPorts;
import dev.pigeonhole.testsupport.redis.RedisTarget;
import java.time.Duration;

/** The adapter's settings for a Redis the test support found or started, and for one that is not there. */
public final class RedisTestSettings {

    /** The client name {@link #settings(RedisTarget)} uses. */
    public static final String DEFAULT_CLIENT_NAME = "pigeonhole-test";

    private RedisTestSettings() {
    }

    /** Where the target is, as the drivers take it: its URL, or a cluster's seeds. */
    public static RedisSettings.Endpoint endpoint(RedisTarget target) {
        return target.isCluster()
                ? RedisSettings.Endpoint.cluster(target.address())
                : RedisSettings.Endpoint.single(target.address());
    }

    /** Settings with default timeouts and the client name {@value #DEFAULT_CLIENT_NAME}. */
    public static RedisSettings settings(RedisTarget target) {
        return settings(target, DEFAULT_CLIENT_NAME);
    }

    /** Settings with default timeouts whose connections carry {@code clientName}, for {@link RedisTarget#killConnections}. */
    public static RedisSettings settings(RedisTarget target, String clientName) {
        return RedisSettings.of(endpoint(target)).withClientName(clientName);
    }

    /**
     * Settings for a loopback port where nothing listens, with 300 ms timeouts, for tests of what
     * a client does when Redis is down.
     */
    public static RedisSettings nowhere(boolean cluster) {
        int port = LoopbackPorts.unused();
        RedisSettings.Endpoint endpoint = cluster
                ? RedisSettings.Endpoint.cluster("127.0.0.1:" + port)
                : RedisSettings.Endpoint.single("redis://127.0.0.1:" + port);
        return RedisSettings.of(endpoint)
                .withTimeouts(Duration.ofMillis(300), Duration.ofMillis(300))
                .withClientName(RedisTarget.newClientName());
    }
}
