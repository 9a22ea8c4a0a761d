package dev.pigeonhole.adapter.redis;

import dev.pigeonhole.adapter.redis.fixture.RedisServers;
import dev.pigeonhole.adapter.redis.fixture.RedisTarget;
import dev.pigeonhole.domain.model.limits.Limits;
import dev.pigeonhole.tck.MailboxesDifferentialContract;
import dev.pigeonhole.tck.StoreFixture;
import net.jqwik.api.Group;

import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Every Redis configuration against the mailbox aggregate, on random operations and races: the
 * proof that the Lua scripts say what {@code Mailbox} says. jqwik runs groups, not JUnit's nested classes,
 * so the configurations are listed here as well as in the {@link RedisContractSuite} subclasses.
 */
class RedisMailboxesDifferentialTest {

    private static StoreFixture store(Supplier<RedisTarget> target, RedisClientKind client,
                                      Function<String, KeyLayout> layout, Limits limits) {
        return new RedisStoreFixture(target.get(), client, layout, limits);
    }

    @Group
    class JedisSingleNode extends MailboxesDifferentialContract {
        @Override
        protected StoreFixture newStore(Limits limits) {
            return store(RedisServers::single, RedisClientKind.JEDIS, KeyLayout::tagged, limits);
        }
    }

    @Group
    class LettuceSingleNode extends MailboxesDifferentialContract {
        @Override
        protected StoreFixture newStore(Limits limits) {
            return store(RedisServers::single, RedisClientKind.LETTUCE, KeyLayout::tagged, limits);
        }
    }

    @Group
    class JedisCluster extends MailboxesDifferentialContract {
        @Override
        protected StoreFixture newStore(Limits limits) {
            return store(RedisServers::cluster, RedisClientKind.JEDIS, KeyLayout::tagged, limits);
        }
    }

    @Group
    class LettuceCluster extends MailboxesDifferentialContract {
        @Override
        protected StoreFixture newStore(Limits limits) {
            return store(RedisServers::cluster, RedisClientKind.LETTUCE, KeyLayout::tagged, limits);
        }
    }

    @Group
    class BookLayout extends MailboxesDifferentialContract {
        @Override
        protected StoreFixture newStore(Limits limits) {
            return store(RedisServers::single, RedisClientKind.JEDIS, KeyLayout::book, limits);
        }
    }
}
