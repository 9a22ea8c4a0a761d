package dev.pigeonhole.adapter.redis;

import static dev.pigeonhole.adapter.redis.RedisTestSettings.settings;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.pigeonhole.adapter.redis.RedisDriverContract.Message;
import dev.pigeonhole.adapter.redis.RedisDriverContract.Recorder;
import dev.pigeonhole.adapter.redis.RedisDriverContract.Resubscribed;
import dev.pigeonhole.testsupport.redis.RedisNode;
import dev.pigeonhole.testsupport.redis.RedisServers;
import dev.pigeonhole.testsupport.redis.RedisTarget;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Sharded subscriptions when a slot changes master (resharding), which the driver contract cannot
 * provoke: Redis drops the subscriptions of a slot it no longer serves, and every driver
 * subscribes them again on the new owner by itself. The slot moved holds no key and goes back
 * afterwards, since every test shares the cluster.
 */
@Timeout(120)
class ShardedSlotMoveTest {

    private static final Duration PATIENCE = Duration.ofSeconds(20);
    /** The drivers that tell the receiver to resync after a moved slot, since messages may have been missed. */
    private static final Set<RedisClientKind> SAY_RESUBSCRIBED = EnumSet.of(RedisClientKind.JEDIS,
            RedisClientKind.LETTUCE, RedisClientKind.REDISSON);

    private record Node(String id, RedisNode address, List<int[]> ranges) {
        boolean owns(int slot) {
            return ranges.stream().anyMatch(r -> r[0] <= slot && slot <= r[1]);
        }
    }

    @ParameterizedTest
    @EnumSource(RedisClientKind.class)
    void a_sharded_subscription_follows_its_slot_to_another_master(RedisClientKind client) {
        RedisTarget redis = RedisServers.cluster();
        List<Node> masters = masters(redis);
        String prefix = prefixInAnEmptySlot(redis, masters);
        String moving = prefix + "{" + prefix + "moving}";
        String staying = stayingChannel(redis, prefix, moving);
        int slot = slotOf(redis, moving);
        Node source = ownerOf(masters, slot);
        Node target = masters.stream().filter(n -> !n.equals(source)).findFirst().orElseThrow();

        String clientName = RedisTarget.newClientName();
        Recorder recorder = new Recorder();
        try (RedisDriver driver = Drivers.open(client, settings(redis, clientName))) {
            PubSubConnection pubsub = driver.openPubSub(recorder);
            pubsub.subscribe(moving, true);
            pubsub.subscribe(staying, true);
            driver.publish(moving, "before", true);
            driver.publish(staying, "before", true);
            recorder.awaitEvent(new Message(moving, "before"));
            recorder.awaitEvent(new Message(staying, "before"));

            try {
                assign(redis, masters, slot, target);

                // The new owner's SSUBSCRIBE may come after the publish: publish until one arrives.
                await().atMost(PATIENCE).until(() -> {
                    driver.publish(moving, "after", true);
                    return recorder.events().contains(new Message(moving, "after"));
                });
                assertThat(shardSubscriptions(redis, clientName, target.address()))
                        .as("sharded subscriptions on the slot's new master").isPositive();
                if (SAY_RESUBSCRIBED.contains(client)) {
                    recorder.awaitEvent(new Resubscribed());
                }
                // The channel that stayed still delivers. A publish while the driver was resubscribing
                // may be lost, which is what the resubscribed event tells: publish until one arrives.
                await().atMost(PATIENCE).until(() -> {
                    driver.publish(staying, "after", true);
                    return recorder.events().contains(new Message(staying, "after"));
                });
                if (!SAY_RESUBSCRIBED.contains(client)) {
                    assertThat(recorder.events()).as("%s resubscribes in silence", client)
                            .doesNotContain(new Resubscribed());
                }
                pubsub.close();
            } finally {
                assign(redis, masters, slot, source);
            }
        }
    }

    /**
     * A fresh prefix whose "moving" key falls in a slot that holds no key yet: the slot is moved
     * between masters, which only an empty slot allows, and other tests share the cluster. Nearly
     * every prefix qualifies, so a few draws always do.
     */
    private static String prefixInAnEmptySlot(RedisTarget redis, List<Node> masters) {
        for (int draw = 0; draw < 100; draw++) {
            String prefix = redis.newPrefix();
            int slot = slotOf(redis, prefix + "{" + prefix + "moving}");
            if ("0".equals(redis.adminOn(ownerOf(masters, slot).address(), "CLUSTER", "COUNTKEYSINSLOT",
                    Integer.toString(slot)))) {
                return prefix;
            }
        }
        throw new AssertionError("no empty slot in 100 draws: the shared cluster is nearly full of test keys");
    }

    /** A channel on the same master as {@code moving} but in another slot, so it stays while that one moves. */
    private static String stayingChannel(RedisTarget redis, String prefix, String moving) {
        RedisNode master = redis.masterOf(moving);
        int movingSlot = slotOf(redis, moving);
        for (int draw = 0; draw < 1000; draw++) {
            String channel = prefix + "{" + prefix + "staying" + draw + "}";
            if (redis.masterOf(channel).equals(master) && slotOf(redis, channel) != movingSlot) {
                return channel;
            }
        }
        throw new AssertionError("no other slot on " + master + " in 1000 draws");
    }

    private static int slotOf(RedisTarget redis, String key) {
        return Integer.parseInt(redis.admin("CLUSTER", "KEYSLOT", key));
    }

    private static Node ownerOf(List<Node> masters, int slot) {
        return masters.stream().filter(n -> n.owns(slot)).findFirst().orElseThrow();
    }

    private static long shardSubscriptions(RedisTarget redis, String clientName, RedisNode node) {
        return redis.clients(clientName).stream()
                .filter(c -> c.getOrDefault("laddr", "").endsWith(":" + node.port()))
                .mapToLong(c -> Long.parseLong(c.getOrDefault("ssub", "0")))
                .sum();
    }

    /** Gives the (empty) slot to {@code owner}: the new owner first, as a migration would end. */
    private static void assign(RedisTarget redis, List<Node> masters, int slot, Node owner) {
        List<Node> order = new ArrayList<>();
        order.add(owner);
        masters.stream().filter(n -> !n.equals(owner)).forEach(order::add);
        for (Node node : order) {
            redis.adminOn(node.address(), "CLUSTER", "SETSLOT", Integer.toString(slot), "NODE", owner.id());
        }
        await().atMost(PATIENCE)
                .until(() -> masters.stream().allMatch(n -> ownerSeenBy(redis, n, slot).equals(owner.id())));
    }

    private static String ownerSeenBy(RedisTarget redis, Node node, int slot) {
        for (Node seen : parse(redis.adminOn(node.address(), "CLUSTER", "NODES"))) {
            if (seen.owns(slot)) {
                return seen.id();
            }
        }
        return "";
    }

    private static List<Node> masters(RedisTarget redis) {
        return parse(redis.admin("CLUSTER", "NODES")).stream().filter(n -> !n.ranges().isEmpty()).toList();
    }

    private static List<Node> parse(String clusterNodes) {
        List<Node> nodes = new ArrayList<>();
        for (String line : clusterNodes.split("\n")) {
            String[] parts = line.strip().split(" ");
            if (parts.length < 8 || !parts[2].contains("master")) {
                continue;
            }
            List<int[]> ranges = new ArrayList<>();
            for (int i = 8; i < parts.length; i++) {
                if (parts[i].startsWith("[")) {
                    continue;
                }
                String[] bounds = parts[i].split("-");
                int low = Integer.parseInt(bounds[0]);
                ranges.add(new int[] {low, bounds.length > 1 ? Integer.parseInt(bounds[1]) : low});
            }
            nodes.add(new Node(parts[0], RedisNode.parse(parts[1].split("@")[0]), ranges));
        }
        return nodes;
    }
}
