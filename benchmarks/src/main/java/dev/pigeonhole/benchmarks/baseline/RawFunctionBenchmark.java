package dev.pigeonhole.benchmarks.baseline;

import dev.pigeonhole.adapter.redis.Functions;
import dev.pigeonhole.codec.LiveEventCodec;
import dev.pigeonhole.domain.model.ChatId;
import dev.pigeonhole.domain.model.UserId;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import redis.clients.jedis.RedisClient;

/**
 * The adapter's send function called straight from a raw client: the floor under SendBenchmark's
 * JEDIS and LETTUCE figures. What SendBenchmark pays above this is the hexagon (validation, the
 * domain service, JSON through Jackson, reply decoding), since the Redis work is identical.
 * Jedis lends each thread a pooled connection; Lettuce shares one, as the adapter's driver does.
 *
 * <p>The function is the adapter's own, from its library as the adapter loads it, and the keys
 * and arguments follow ChatScripts.Posting in the tagged layout with no idempotency key. That
 * coupling is deliberate: if the function's contract changes, the reply check in callFunction
 * fails instead of quietly timing something else.
 */
@State(Scope.Benchmark)
@BenchmarkMode({Mode.Throughput, Mode.SampleTime})
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(1)
public class RawFunctionBenchmark {

    private static final String SEND = Functions.nameOf("chat_send");
    private static final String CHAT = "raw";
    private static final String SENDER = "alice";
    private static final String BODY = "a message of about the length people type";
    private static final String MAX_RETAINED = "10000";
    private static final String MAX_MEMBERS = "1000";
    private static final String WINDOW_MILLIS = Long.toString(Duration.ofHours(24).toMillis());

    @Param({"JEDIS", "LETTUCE"})
    public String client;

    private RedisClient jedis;
    private io.lettuce.core.RedisClient lettuce;
    private StatefulRedisConnection<String, String> lettuceConnection;
    private RedisCommands<String, String> lettuceCommands;
    private String[] keyArray;
    private List<String> keys;
    private String channel;

    @Setup(Level.Trial)
    public void start() {
        jedis = RawRedis.connect();
        jedis.functionLoadReplace(Functions.library().source());
        String base = RawRedis.prefix() + "chat:{" + CHAT + "}:";
        keys = List.of(base + "members", base + "ids", base + "msgs", base + "sent", base + "sent-windows",
                base + "joined", base + "open", base + "buckets", base + "generation");
        channel = base.substring(0, base.length() - 1); // KeyLayout.Tagged's chat channel
        keyArray = keys.toArray(String[]::new);
        jedis.zadd(keys.getFirst(), 0, SENDER);
        jedis.zadd(keys.getFirst(), 0, "bob");
        if (client.equals("LETTUCE")) {
            lettuce = io.lettuce.core.RedisClient.create(RawRedis.url().toString());
            lettuceConnection = lettuce.connect();
            lettuceCommands = lettuceConnection.sync();
        }
    }

    @TearDown(Level.Trial)
    public void stop() {
        if (lettuce != null) {
            lettuceConnection.close();
            lettuce.shutdown();
        }
        jedis.close();
    }

    @Benchmark
    @Threads(1)
    public Object send() {
        return callFunction();
    }

    @Benchmark
    @Threads(8)
    public Object send8() {
        return callFunction();
    }

    private Object callFunction() {
        long now = System.currentTimeMillis();
        String tail = "\"ts\":" + BigDecimal.valueOf(now, 3).toPlainString()
                + ",\"sender\":\"" + SENDER + "\",\"message\":\"" + BODY + "\"}";
        LiveEventCodec.Unnumbered event = LiveEventCodec.messagePosted(ChatId.of(CHAT), Instant.ofEpochMilli(now),
                UserId.of(SENDER), BODY);
        // As ChatScripts.Posting lays them out: chat, sender, tail, at, key field, key window, body
        // digest, max retained, max members, rate burst and interval (none: the store is measured,
        // not the limiter), publish mode, channel, the event before and after its id.
        List<String> args = List.of(CHAT, SENDER, tail, Long.toString(now), "", WINDOW_MILLIS, "", MAX_RETAINED,
                MAX_MEMBERS, "1", "0", "P", channel, event.beforeId(), event.afterId());
        Object reply = lettuceCommands == null
                ? jedis.fcall(SEND, keys, args)
                : lettuceCommands.fcall(SEND, ScriptOutputType.MULTI, keyArray, args.toArray(String[]::new));
        if (!(reply instanceof List<?> words) || words.isEmpty() || !"SENT".equals(text(words.getFirst()))) {
            throw new IllegalStateException(SEND + " answered " + reply);
        }
        return reply;
    }

    private static String text(Object word) {
        return word instanceof byte[] bytes ? new String(bytes, StandardCharsets.UTF_8) : String.valueOf(word);
    }
}
