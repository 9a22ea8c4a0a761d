package dev.pigeonhole.adapter.redis;

import dev.pigeonhole.adapter.redis.fixture.RedisTarget;
import dev.pigeonhole.domain.model.ChatId;
import dev.pigeonhole.domain.model.limits.Limits;
import dev.pigeonhole.domain.port.out.Channels;
import dev.pigeonhole.domain.port.out.ChatLock;
import dev.pigeonhole.domain.port.out.Chats;
import dev.pigeonhole.domain.port.out.Mailboxes;
import dev.pigeonhole.domain.port.out.PresenceRegistry;
import dev.pigeonhole.domain.port.out.Quotas;
import dev.pigeonhole.tck.StoreFixture;

import java.time.InstantSource;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.function.UnaryOperator;

/**
 * Every port on one Redis, isolated from every other fixture by a random key prefix (and channel
 * prefix) and a client name of its own, so that dropping "its" connections drops no one else's.
 */
public final class RedisStoreFixture implements StoreFixture {

    private final RedisTarget target;
    private final String prefix;
    private final String clientName = RedisTarget.newClientName();
    private final RedisDriver driver;
    private final KeyLayout keys;
    private final RedisChats chats;
    private final RedisMailboxes mailboxes;
    private final RedisPresenceRegistry presence;
    private final RedisChatLock lock;
    private final RedisChannels channels;
    private final RedisQuotas quotas;
    private final RedisClientKind client;
    private RedisDriver secondDriver;

    public RedisStoreFixture(RedisTarget target, RedisClientKind client, Function<String, KeyLayout> layout,
                             Limits limits) {
        this(target, client, layout, limits, UnaryOperator.identity());
    }

    /** @param decorate wraps the driver every port uses, to count or disturb what it does */
    public RedisStoreFixture(RedisTarget target, RedisClientKind client, Function<String, KeyLayout> layout,
                             Limits limits, UnaryOperator<RedisDriver> decorate) {
        this.target = target;
        this.prefix = target.newPrefix();
        this.driver = decorate.apply(client.open(target.settings(clientName)));
        this.keys = layout.apply(prefix);
        // Patterns are part of the Channels contract, so a cluster publishes for them too.
        PublishMode publishing = PublishMode.of(driver, true);
        this.chats = new RedisChats(driver, keys, limits, publishing);
        this.mailboxes = new RedisMailboxes(driver, keys, limits, publishing);
        this.presence = new RedisPresenceRegistry(driver, keys);
        this.lock = new RedisChatLock(driver, keys, InstantSource.system());
        this.channels = new RedisChannels(driver, keys, publishing);
        this.quotas = new RedisQuotas(driver, keys);
        this.client = client;
    }

    public RedisDriver driver() {
        return driver;
    }

    public KeyLayout keys() {
        return keys;
    }

    public String prefix() {
        return prefix;
    }

    @Override
    public Chats chats() {
        return chats;
    }

    @Override
    public Mailboxes mailboxes() {
        return mailboxes;
    }

    @Override
    public PresenceRegistry presence() {
        return presence;
    }

    @Override
    public ChatLock lock() {
        return lock;
    }

    @Override
    public Channels channels() {
        return channels;
    }

    @Override
    public Quotas quotas() {
        return quotas;
    }

    /** Through a connection of its own, as a second server's. */
    @Override
    public synchronized Quotas quotasOfAnotherInstance() {
        if (secondDriver == null) {
            secondDriver = client.open(target.settings(clientName));
        }
        return new RedisQuotas(secondDriver, keys);
    }

    /** CLIENT KILL on this fixture's subscription connections, as a network failure would. */
    @Override
    public void dropLiveConnections() {
        if (target.killConnections(clientName, "pubsub") == 0) {
            throw new IllegalStateException("no subscription connection named " + clientName + " to drop");
        }
    }

    /** The chat's keys that still exist: a deleted chat must leave none. */
    @Override
    public Set<String> tracesOf(ChatId chat) {
        KeyLayout.ChatKeys chatKeys = keys.chat(chat);
        Set<String> left = new TreeSet<>(target.keysWithPrefix(prefix));
        left.retainAll(Set.copyOf(chatKeys.all()));
        return left;
    }

    @Override
    public synchronized void close() {
        driver.close();
        if (secondDriver != null) {
            secondDriver.close();
        }
    }
}
