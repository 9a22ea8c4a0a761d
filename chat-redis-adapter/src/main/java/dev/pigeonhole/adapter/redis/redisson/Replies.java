package dev.pigeonhole.adapter.redis.redisson;

import dev.pigeonhole.adapter.redis.PlainReplies;
import dev.pigeonhole.adapter.redis.RedisFailure;
import dev.pigeonhole.adapter.redis.RedisFailures;
import org.redisson.client.RedisException;
import org.redisson.client.protocol.RedisCommand;

import java.util.List;
import java.util.Optional;

/** Turns what Redisson decoded into the plain values of the driver contract. */
final class Replies {

    private Replies() {
    }

    /** A command whose reply Redisson hands over as decoded, in whatever shape it has. */
    static RedisCommand<Object> command(String name) {
        return new RedisCommand<>(name);
    }

    static Object plain(String action, Object reply) {
        return PlainReplies.plain(action, reply, Replies::redissonValue);
    }

    private static Object redissonValue(String action, Object value) {
        // A Lua table may hold an error reply ({err = ...}); Redis passes it on nested.
        if (value instanceof RedisException error && RedissonFailures.read(error) instanceof RedisFailure.ErrorReply reply) {
            throw RedisFailures.callError(action, reply.text(), error);
        }
        throw PlainReplies.unmapped(action, value);
    }

    /** The primary, host:port, that CLUSTER SLOTS names for {@code slot}. */
    static Optional<String> ownerOf(Object clusterSlots, int slot) {
        if (!(clusterSlots instanceof List<?> ranges)) {
            return Optional.empty();
        }
        for (Object range : ranges) {
            if (range instanceof List<?> r && r.size() >= 3 && r.get(0) instanceof Long start && r.get(1) instanceof Long end
                    && start <= slot && slot <= end && r.get(2) instanceof List<?> master && master.size() >= 2) {
                return Optional.of(master.get(0) + ":" + master.get(1));
            }
        }
        return Optional.empty();
    }
}
