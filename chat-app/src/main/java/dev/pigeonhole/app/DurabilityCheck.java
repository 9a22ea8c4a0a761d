package dev.pigeonhole.app;

import dev.pigeonhole.adapter.redis.Durability;
import dev.pigeonhole.adapter.redis.RedisDriver;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Says at start which durability is in force on Redis and, when writes wait for replicas, whether
 * every primary has as many connected as they wait for. One with fewer answers each write 503
 * not-durable until they come; but replicas may well attach after the server starts (a replica
 * restarting, a deployment that brings them up last), so that is a warning, not a refusal.
 */
final class DurabilityCheck {

    private static final Logger LOG = LoggerFactory.getLogger(DurabilityCheck.class);

    /** Redis 7 still names its replicas slaves in INFO. */
    private static final Pattern CONNECTED = Pattern.compile("^connected_slaves:(\\d+)\\s*$", Pattern.MULTILINE);

    private DurabilityCheck() {
    }

    static void report(RedisDriver driver, Durability durability) {
        if (!durability.waits()) {
            LOG.info("Redis durability: none; a write is answered once the primary ran it, and a failover may lose "
                    + "the latest ones");
            return;
        }
        LOG.info("Redis durability: {}; a write is answered once WAIT confirms it on {}, else 503 not-durable "
                + "after {} ms", durability, replicas(durability.replicas()), durability.timeout().toMillis());
        for (String primary : driver.primaries()) {
            int connected;
            try {
                connected = connectedReplicas(driver, primary);
            } catch (RuntimeException e) {
                // The count is advice: a primary that does not give it leaves the verdict to the writes.
                LOG.warn("could not count the replicas of the Redis primary {}: {}", primary, e.getMessage());
                continue;
            }
            if (connected < durability.replicas()) {
                LOG.warn("the Redis primary {} has {} connected, and writes wait for {}: every write it takes is "
                        + "answered 503 not-durable until enough replicas attach", primary, replicas(connected),
                        durability.replicas());
            }
        }
    }

    /** The replicas connected to the primary, as its INFO says. */
    private static int connectedReplicas(RedisDriver driver, String primary) {
        Matcher count = CONNECTED.matcher(String.valueOf(driver.onNode(primary, List.of("INFO", "replication"))));
        if (!count.find()) {
            throw new IllegalStateException("INFO replication has no connected_slaves line");
        }
        return Integer.parseInt(count.group(1));
    }

    private static String replicas(int count) {
        return count + (count == 1 ? " replica" : " replicas");
    }
}
