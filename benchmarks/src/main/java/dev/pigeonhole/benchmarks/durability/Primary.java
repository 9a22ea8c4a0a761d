package dev.pigeonhole.benchmarks.durability;

import java.net.URI;
import redis.clients.jedis.Jedis;

/**
 * The benchmark's own plain connection to the primary, beside the drivers it measures: how many
 * replicas follow it, and the loopback round trip. One thread uses it.
 */
final class Primary implements AutoCloseable {

    private final Jedis jedis;

    Primary(URI url) {
        this.jedis = new Jedis(url);
    }

    /** The replicas the primary streams to, as {@code INFO replication} lists them. */
    int onlineReplicas() {
        return onlineReplicas(jedis.info("replication"));
    }

    /** Counts the {@code slaveN:} lines in state online: a replica still syncing acknowledges nothing. */
    static int onlineReplicas(String info) {
        int online = 0;
        for (String line : info.split("\\R")) {
            if (line.matches("slave\\d+:.*") && line.contains("state=online")) {
                online++;
            }
        }
        return online;
    }

    String redisVersion() {
        for (String line : jedis.info("server").split("\\R")) {
            if (line.startsWith("redis_version:")) {
                return line.substring("redis_version:".length()).strip();
            }
        }
        return "unknown";
    }

    /**
     * The mean time of {@code pings} PINGs, each sent when the last one's answer came back: one
     * round trip as a caller sees it, as {@code redis-benchmark -c 1 PING} measures it elsewhere in
     * the benchmarks, plus one plain client's own few microseconds.
     */
    double roundTripMicros(int pings) {
        long start = System.nanoTime();
        for (int i = 0; i < pings; i++) {
            jedis.ping();
        }
        return (System.nanoTime() - start) / 1e3 / pings;
    }

    @Override
    public void close() {
        jedis.close();
    }
}
