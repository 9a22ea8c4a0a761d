package dev.pigeonhole.benchmarks.clients;

import java.net.URI;
import redis.clients.jedis.Jedis;

/**
 * How many connections one instance holds, as Redis sees them: the entries of {@code CLIENT
 * LIST} that carry the instance's client name (every connection of the adapter's drivers
 * carries it, its subscriptions' too). The asking connection has no name, so it never counts.
 */
final class Connections implements AutoCloseable {

    private final Jedis redis;

    Connections(URI url) {
        this.redis = new Jedis(url);
    }

    int named(String clientName) {
        return count(redis.clientList(), clientName);
    }

    /** The lines of a CLIENT LIST reply whose {@code name} field is exactly {@code clientName}. */
    static int count(String clientList, String clientName) {
        String field = "name=" + clientName;
        int count = 0;
        for (String line : clientList.split("\n")) {
            for (String part : line.strip().split(" ")) {
                if (part.equals(field)) {
                    count++;
                    break;
                }
            }
        }
        return count;
    }

    @Override
    public void close() {
        redis.close();
    }
}
