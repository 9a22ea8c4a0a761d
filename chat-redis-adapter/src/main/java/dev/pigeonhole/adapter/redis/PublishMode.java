package dev.pigeonhole.adapter.redis;

/**
 * How live events go out. A single node has classic PUBLISH. A cluster has SPUBLISH, which stays
 * within the channel's shard instead of crossing the whole cluster bus; but Redis has no sharded
 * patterns, so a pattern subscriber (classic PSUBSCRIBE) hears only classic PUBLISH. A cluster
 * publishes both ways only when it is asked to carry patterns: nothing the server runs subscribes
 * to one, and a second, cluster-wide publish of every event is a high price for no listener.
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
     * @param patternsOnCluster whether pattern subscriptions work on a cluster, at the price of a
     *                          classic PUBLISH beside every SPUBLISH; off, a cluster refuses them
     *                          ({@link RedisChannels}). A single node carries patterns either way.
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

    /** Whether a pattern subscriber hears what goes out: only classic PUBLISH reaches one. */
    boolean carriesPatterns() {
        return classic();
    }
}
