package dev.pigeonhole.adapter.redis;

import dev.pigeonhole.domain.model.ChatId;
import dev.pigeonhole.domain.model.limits.Limits;
import dev.pigeonhole.tck.StoreFixture;
import dev.pigeonhole.testsupport.OnFirstUse;
import dev.pigeonhole.testsupport.redis.RedisTarget;

import java.time.InstantSource;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import static dev.pigeonhole.adapter.redis.RedisTestSettings.settings;

/**
 * Every port on one Redis, for the contract suite and the tests that look closer, isolated from
 * every other fixture by a key prefix (and channel prefix) and a client name of its own, so that
 * dropping "its" connections drops no one else's.
 */
final class RedisStoreFixture {

    private RedisStoreFixture() {
    }

    /** On a fresh prefix of {@code target}, laid out by {@code layout}. */
    static StoreFixture open(RedisTarget target, RedisClientKind client, Function<String, KeyLayout> layout,
                             Limits limits) {
        return open(target, client, layout.apply(target.newPrefix()), limits, UnaryOperator.identity());
    }

    /**
     * With patterns carried on a cluster: they are part of the Channels contract, which the
     * contract suite holds every configuration to.
     *
     * @param keys     the layout and the prefix no other fixture uses
     * @param decorate wraps the driver every port uses, to count or disturb what it does
     */
    static StoreFixture open(RedisTarget target, RedisClientKind client, KeyLayout keys, Limits limits,
                             UnaryOperator<RedisDriver> decorate) {
        return open(target, client, keys, limits, decorate, true);
    }

    /** @param patternsOnCluster whether a cluster publishes classic PUBLISH too, for pattern subscribers */
    static StoreFixture open(RedisTarget target, RedisClientKind client, KeyLayout keys, Limits limits,
                             UnaryOperator<RedisDriver> decorate, boolean patternsOnCluster) {
        return open(target, clientName -> settings(target, clientName), client, keys, limits, decorate, patternsOnCluster);
    }

    /**
     * @param settings the settings to connect with, given the client name of the fixture's
     *                 connections; {@code target}'s helpers look on from outside
     */
    static StoreFixture open(RedisTarget target, Function<String, RedisSettings> settingsFor, RedisClientKind client,
                             KeyLayout keys, Limits limits, UnaryOperator<RedisDriver> decorate, boolean patternsOnCluster) {
        String clientName = RedisTarget.newClientName();
        RedisSettings settings = settingsFor.apply(clientName);
        RedisDriver driver = decorate.apply(Drivers.open(client, settings));
        OnFirstUse<RedisDriver> secondConnection = new OnFirstUse<>(() -> Drivers.open(client, settings));
        PublishMode publishing = PublishMode.of(driver, patternsOnCluster);
        return new StoreFixture(
                new RedisChats(driver, keys, limits, publishing),
                new RedisMailboxes(driver, keys, limits, publishing),
                new RedisPresenceRegistry(driver, keys),
                new RedisChatLock(driver, keys, InstantSource.system()),
                new RedisChannels(driver, keys, publishing),
                new RedisQuotas(driver, keys),
                new RedisConsents(driver, keys),
                // Through a connection of its own, as a second server's.
                () -> new RedisQuotas(secondConnection.get(), keys),
                () -> dropSubscriptions(target, clientName),
                chat -> keysLeft(target, keys, chat),
                List.of(driver, secondConnection));
    }

    /** CLIENT KILL on the fixture's subscription connections, as a network failure would. */
    private static void dropSubscriptions(RedisTarget target, String clientName) {
        if (target.killConnections(clientName, "pubsub") == 0) {
            throw new IllegalStateException("no subscription connection named " + clientName + " to drop");
        }
    }

    /** The chat's keys that still exist: a deleted chat must leave none. */
    private static Set<String> keysLeft(RedisTarget target, KeyLayout keys, ChatId chat) {
        Set<String> left = new TreeSet<>(target.keysWithPrefix(keys.prefix()));
        left.retainAll(Set.copyOf(keys.chat(chat).all()));
        return left;
    }
}
