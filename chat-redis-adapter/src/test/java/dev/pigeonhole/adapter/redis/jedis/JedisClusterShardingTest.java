package dev.pigeonhole.adapter.redis.jedis;

import static dev.pigeonhole.adapter.redis.RedisTestSettings.settings;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.pigeonhole.adapter.redis.PubSubConnection;
import dev.pigeonhole.adapter.redis.PubSubListener;
import dev.pigeonhole.testsupport.redis.RedisNode;
import dev.pigeonhole.testsupport.redis.RedisServers;
import dev.pigeonhole.testsupport.redis.RedisTarget;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Sharded subscriptions when a slot changes node, which the shared contract cannot provoke. */
@Timeout(120)
class JedisClusterShardingTest {

    private static final Duration PATIENCE = Duration.ofSeconds(20);

    private record Node(String id, RedisNode address, List<int[]> ranges) {
        boolean owns(int slot) {
            return ranges.stream().anyMatch(r -> r[0] <= slot && slot <= r[1]);
        }
    }

    @Test
    void a_sharded_subscription_follows_its_slot_to_another_node() {
        RedisTarget redis = RedisServers.cluster();
        List<Node> masters = masters(redis);
        String prefix = prefixInAnEmptySlot(redis, masters);
        String moving = prefix + "{" + prefix + "moving}";
        String staying = prefix + "{" + prefix + "staying}";
        int slot = Integer.parseInt(redis.admin("CLUSTER", "KEYSLOT", moving));
        Node source = masters.stream().filter(n -> n.owns(slot)).findFirst().orElseThrow();
        Node target = masters.stream().filter(n -> !n.equals(source)).findFirst().orElseThrow();

        String clientName = RedisTarget.newClientName();
        List<String> events = new CopyOnWriteArrayList<>();
        try (JedisDriver driver = new JedisDriver(settings(redis, clientName))) {
            PubSubConnection pubsub = driver.openPubSub(new PubSubListener() {
                @Override
                public void message(String channel, String payload) {
                    events.add(channel + "=" + payload);
                }

                @Override
                public void patternMessage(String pattern, String channel, String payload) {
                    events.add(pattern + ":" + channel + "=" + payload);
                }

                @Override
                public void resubscribed() {
                    events.add("resubscribed");
                }
            });
            pubsub.subscribe(moving, true);
            pubsub.subscribe(staying, true);
            driver.publish(moving, "before", true);
            await().atMost(PATIENCE).until(() -> events.contains(moving + "=before"));

            try {
                assign(redis, masters, slot, target);

                await().atMost(PATIENCE).until(() -> events.contains("resubscribed"));
                await().atMost(PATIENCE).until(() -> {
                    driver.publish(moving, "after", true);
                    return events.contains(moving + "=after");
                });
                assertThat(shardSubscriptions(redis, clientName, target.address()))
                        .as("sharded subscriptions on the slot's new node").isPositive();
                driver.publish(staying, "still", true);
                await().atMost(PATIENCE).until(() -> events.contains(staying + "=still"));
                pubsub.close();
            } finally {
                assign(redis, masters, slot, source);
            }
        }
    }

    /**
     * A fresh prefix whose "moving" key falls in a slot that holds no key yet: the slot is moved
     * between nodes, which only an empty slot allows, and other tests share the cluster. Nearly
     * every prefix qualifies, so a few draws always do.
     */
    private static String prefixInAnEmptySlot(RedisTarget redis, List<Node> masters) {
        for (int draw = 0; draw < 100; draw++) {
            String prefix = redis.newPrefix();
            int slot = Integer.parseInt(redis.admin("CLUSTER", "KEYSLOT", prefix + "{" + prefix + "moving}"));
            Node owner = masters.stream().filter(n -> n.owns(slot)).findFirst().orElseThrow();
            if ("0".equals(redis.adminOn(owner.address(), "CLUSTER", "COUNTKEYSINSLOT", Integer.toString(slot)))) {
                return prefix;
            }
        }
        throw new AssertionError("no empty slot in 100 draws: the shared cluster is nearly full of test keys");
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
        await().atMost(PATIENCE).until(() -> masters.stream().allMatch(n -> ownerSeenBy(redis, n, slot).equals(owner.id())));
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
