package dev.pigeonhole.adapter.redis;

/**
 * How live events go out. A single node has classic PUBLISH. A cluster has SPUBLISH, which stays
 * within the channel's shard instead of crossing the whole cluster bus; but Redis has no sharded
 * patterns, so a pattern subscriber (classic PSUBSCRIBE) hears only classic PUBLISH. A cluster
 * that has pattern subscribers therefore publishes both ways.
 */
public enum PublishMode {
    CLASSIC("P"),
    SHARDED("S"),
    SHARDED_AND_CLASSIC("SP");

    private final String scriptArgument;

    PublishMode(String scriptArgument) {
        this.scriptArgument = scriptArgument;
    }

    /**
     * @param patternsOnCluster whether anything subscribes to patterns on a cluster; the port
     *                          promises patterns work, so it is on unless the operator knows
     *                          nothing does
     */
    public static PublishMode of(RedisDriver driver, boolean patternsOnCluster) {
        if (!driver.isCluster()) {
            return CLASSIC;
        }
        return patternsOnCluster ? SHARDED_AND_CLASSIC : SHARDED;
    }

    /** The {@code mode} argument of the scripts' {@code announce}. */
    String scriptArgument() {
        return scriptArgument;
    }

    boolean sharded() {
        return this != CLASSIC;
    }

    boolean classic() {
        return this != SHARDED;
    }
}
