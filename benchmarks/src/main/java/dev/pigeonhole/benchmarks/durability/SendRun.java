package dev.pigeonhole.benchmarks.durability;

import dev.pigeonhole.adapter.redis.Durability;
import dev.pigeonhole.adapter.redis.Functions;
import dev.pigeonhole.adapter.redis.KeyLayout;
import dev.pigeonhole.adapter.redis.PublishMode;
import dev.pigeonhole.adapter.redis.RedisChats;
import dev.pigeonhole.adapter.redis.RedisClientKind;
import dev.pigeonhole.adapter.redis.RedisDriver;
import dev.pigeonhole.adapter.redis.RedisSettings;
import dev.pigeonhole.adapter.redis.glide.GlideDriver;
import dev.pigeonhole.adapter.redis.jedis.JedisDriver;
import dev.pigeonhole.adapter.redis.lettuce.LettuceDriver;
import dev.pigeonhole.adapter.redis.redisson.RedissonDriver;
import dev.pigeonhole.benchmarks.clients.Callers;
import dev.pigeonhole.benchmarks.durability.Samples.Side;
import dev.pigeonhole.domain.model.ChatId;
import dev.pigeonhole.domain.model.MillisecondClock;
import dev.pigeonhole.domain.model.UserId;
import dev.pigeonhole.domain.model.chat.Access;
import dev.pigeonhole.domain.model.limits.Limits;
import dev.pigeonhole.domain.model.limits.RateLimit;
import java.time.InstantSource;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.HdrHistogram.Histogram;

/**
 * One client's driver, as the composition root builds it for a single node, with the send port
 * the server calls ({@link RedisChats#send}) twice over it: waiting for nothing, and waiting for
 * the replicas asked. Both send into one chat of their own under a key prefix of this run's own,
 * so the two sides differ in the wait alone.
 */
final class SendRun implements AutoCloseable {

    private static final UserId SENDER = UserId.of("alice");
    private static final String BODY = "a message of about the length people type";
    /** A send's time is at the millisecond, as the domain keeps time. */
    private static final InstantSource CLOCK = MillisecondClock.of(InstantSource.system());

    private final RedisDriver driver;
    private final RedisChats plain;
    private final RedisChats durable;
    private final ChatId chat;

    private SendRun(RedisDriver driver, Durability durability) {
        this.driver = driver;
        KeyLayout keys = KeyLayout.tagged("durable-" + UUID.randomUUID().toString().substring(0, 8) + ":");
        PublishMode publishing = PublishMode.of(driver, false);
        this.plain = new RedisChats(driver, keys, Limits.DEFAULTS, publishing, Durability.NONE);
        this.durable = new RedisChats(driver, keys, Limits.DEFAULTS, publishing, durability);
        this.chat = plain.newChatId();
        plain.open(chat, SENDER, Set.of(UserId.of("bob")), Access.PRIVATE, "hello", CLOCK.instant());
    }

    /** The client's driver on {@code url}, the adapter's functions loaded as the server loads them. */
    static SendRun start(RedisClientKind client, String url, Durability durability) {
        RedisSettings settings = RedisSettings.of(RedisSettings.Endpoint.single(url));
        RedisDriver driver = switch (client) {
            case JEDIS -> new JedisDriver(settings);
            case LETTUCE -> new LettuceDriver(settings);
            case REDISSON -> new RedissonDriver(settings);
            case GLIDE -> new GlideDriver(settings);
        };
        try {
            Functions.install(driver);
            return new SendRun(driver, durability);
        } catch (RuntimeException e) {
            driver.close();
            throw e;
        }
    }

    /** What one measure took: the wall clock over all its sends, and each send's own time. */
    record Measured(long sends, long wallNanos, Histogram nanos) {
    }

    /**
     * {@code sends} sends, shared by {@code callers} virtual threads that each send again as soon
     * as their last send returned ({@link Callers}: a closed loop, the server's one thread per
     * request); every send timed whole. A send that fails, a refusal as not durable included,
     * fails the measure.
     */
    Measured sends(Side side, int callers, long sends) throws Exception {
        RedisChats chats = side == Side.NONE ? plain : durable;
        Histogram[] nanos = new Histogram[callers];
        for (int i = 0; i < callers; i++) {
            nanos[i] = new Histogram(3);
        }
        Callers.Done done = Callers.run(callers, sends, caller -> {
            long begun = System.nanoTime();
            chats.send(chat, SENDER, BODY, CLOCK.instant(), Optional.empty(), RateLimit.NONE);
            long spent = System.nanoTime() - begun;
            nanos[caller].recordValue(spent);
            return spent;
        });
        Histogram all = new Histogram(3);
        for (Histogram caller : nanos) {
            all.add(caller);
        }
        return new Measured(done.operations(), done.wallNanos(), all);
    }

    @Override
    public void close() {
        driver.close();
    }
}
