package dev.pigeonhole.testsupport.redis;

import java.net.URI;
import javax.net.ssl.SSLSocketFactory;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;

/**
 * A Redis that tests may use, one node or a cluster: where it is ({@link #address()}, which each
 * module turns into its own client's settings), and administrative helpers that look at or
 * disturb the server from outside the code under test. Each helper call opens a short-lived
 * connection of its own (named {@value #ADMIN_CLIENT_NAME}), so the helpers are thread-safe and
 * never count among a test's connections; how the nodes are found and reached is
 * {@link TargetNodes}.
 *
 * <p>Tests share a server: they keep their data apart with {@link #newPrefix()} and their
 * connections with {@link #newClientName()}, and never flush anything.
 */
public final class RedisTarget {

    /** The client name of the helpers' own connections. */
    public static final String ADMIN_CLIENT_NAME = "ph-fixture-admin";

    private final String description;
    private final boolean cluster;
    private final String address;
    private final TargetNodes nodes;

    private RedisTarget(String description, boolean cluster, String address, TargetNodes nodes) {
        this.description = description;
        this.cluster = cluster;
        this.address = address;
        this.nodes = nodes;
    }

    /** One node at {@code redis://[[user]:password@]host[:port][/db]}. */
    static RedisTarget single(String description, String url) {
        return single(description, url, null);
    }

    /** One node at a {@code rediss://} URL, reached through {@code tls}. */
    static RedisTarget single(String description, String url, SSLSocketFactory tls) {
        return new RedisTarget(description, false, url, TargetNodes.single(description, url, tls));
    }

    /**
     * A cluster found through its seeds, {@code host:port,...}: the helpers act on every node it
     * reports, not only on the seeds, so a seed list naming one node is enough.
     */
    static RedisTarget cluster(String description, String seeds) {
        return cluster(description, seeds, null);
    }

    /**
     * As {@link #cluster(String, String)}, the helpers signing in to every node as
     * {@code userInfo} ({@code user:password}, percent-encoded as in a URL), or as nobody when null.
     */
    static RedisTarget cluster(String description, String seeds, String userInfo) {
        return cluster(description, seeds, userInfo, null);
    }

    /** As {@link #cluster(String, String, String)}, every node reached over TLS through {@code tls} when not null. */
    static RedisTarget cluster(String description, String seeds, String userInfo, SSLSocketFactory tls) {
        return new RedisTarget(description, true, seeds, TargetNodes.cluster(seeds, userInfo, tls));
    }

    public boolean isCluster() {
        return cluster;
    }

    /**
     * Where a client finds it: the URL of the one node ({@code redis://host:port}, with whatever
     * password or database it was named with), or a cluster's seeds ({@code host:port,...}).
     */
    public String address() {
        return address;
    }

    /** A client name no other test uses, such as {@code ph-3f9a07c1}. */
    public static String newClientName() {
        return "ph-" + randomHex(8);
    }

    /** A key prefix no other test uses, such as {@code t7f3a9c:}; not a hash tag, so keys spread over a cluster. */
    public String newPrefix() {
        return "t" + randomHex(7) + ":";
    }

    /** Every master (the one node, on a single server). */
    public List<RedisNode> masters() {
        return nodes.masters.stream().map(TargetNodes::node).toList();
    }

    /** Every node, replicas included. */
    public List<RedisNode> nodes() {
        return nodes.all.stream().map(TargetNodes::node).toList();
    }

    /**
     * The master that serves {@code key}'s slot, or a sharded channel's, per {@code CLUSTER SLOTS}:
     * the one node of a single server.
     */
    public RedisNode masterOf(String key) {
        RedisNode any = masters().getFirst();
        if (!cluster) {
            return any;
        }
        long slot = (Long) command(any, "CLUSTER", "KEYSLOT", key);
        for (Object range : (List<?>) command(any, "CLUSTER", "SLOTS")) {
            List<?> fields = (List<?>) range;
            if ((Long) fields.get(0) <= slot && slot <= (Long) fields.get(1)) {
                List<?> master = (List<?>) fields.get(2);
                return new RedisNode((String) master.get(0), Math.toIntExact((Long) master.get(1)));
            }
        }
        throw new IllegalStateException("no master of " + this + " serves slot " + slot + " of " + key);
    }

    /** The keys starting with {@code prefix}, over every master. */
    public Set<String> keysWithPrefix(String prefix) {
        Set<String> keys = new LinkedHashSet<>();
        keysWithPrefixByMaster(prefix).values().forEach(keys::addAll);
        return keys;
    }

    /** The keys starting with {@code prefix}, per master (every master is present, with no keys or some). */
    public Map<RedisNode, Set<String>> keysWithPrefixByMaster(String prefix) {
        String pattern = globEscape(prefix) + "*";
        Map<RedisNode, Set<String>> byMaster = new LinkedHashMap<>();
        for (URI master : nodes.masters) {
            byMaster.put(TargetNodes.node(master), nodes.withConnection(master, redis -> {
                Set<String> keys = new LinkedHashSet<>();
                String cursor = "0";
                do {
                    List<?> page = (List<?>) redis.call("SCAN", cursor, "MATCH", pattern, "COUNT", "1000");
                    cursor = (String) page.get(0);
                    ((List<?>) page.get(1)).forEach(key -> keys.add((String) key));
                } while (!cursor.equals("0"));
                return keys;
            }));
        }
        return byMaster;
    }

    /**
     * Kills, on every node, the connections named {@code clientName} of the given
     * {@code CLIENT LIST TYPE} ({@code pubsub} or {@code normal}; {@code null} for any type), as a
     * network failure would. Returns how many it killed.
     */
    public int killConnections(String clientName, String type) {
        Objects.requireNonNull(clientName, "clientName");
        int killed = 0;
        for (URI node : nodes.all) {
            killed += nodes.withConnection(node, redis -> {
                int count = 0;
                for (Map<String, String> client : clientList(redis, type)) {
                    if (clientName.equals(client.get("name")) && client.containsKey("id")) {
                        count += ((Long) redis.call("CLIENT", "KILL", "ID", client.get("id"))).intValue();
                    }
                }
                return count;
            });
        }
        return killed;
    }

    /** How many connections named {@code clientName} are open, over every node, per {@code CLIENT LIST}. */
    public int connectionCount(String clientName, String type) {
        int count = 0;
        for (URI node : nodes.all) {
            count += nodes.withConnection(node, redis -> (int) clientList(redis, type).stream()
                    .filter(client -> clientName.equals(client.get("name")))
                    .count());
        }
        return count;
    }

    /**
     * The {@code CLIENT LIST} entries of the connections named {@code clientName}, over every node,
     * as field maps ({@code id}, {@code addr}, {@code flags}, {@code sub}, {@code psub}, {@code ssub},
     * {@code cmd}, ...). The subscription counts show what a connection is subscribed to right now.
     */
    public List<Map<String, String>> clients(String clientName) {
        List<Map<String, String>> clients = new ArrayList<>();
        for (URI node : nodes.all) {
            nodes.withConnection(node, redis -> clientList(redis, null)).stream()
                    .filter(client -> clientName.equals(client.get("name")))
                    .forEach(clients::add);
        }
        return clients;
    }

    /**
     * The {@code calls} count of a command in {@code INFO commandstats}, summed over the masters.
     * A server counts for everyone, so compare deltas around work no other test does at the same
     * time.
     */
    public long commandCalls(String command) {
        String prefix = "cmdstat_" + command.toLowerCase(Locale.ROOT) + ":";
        long total = 0;
        for (URI master : nodes.masters) {
            String stats = (String) nodes.on(master, "INFO", "commandstats");
            total += stats.lines()
                    .filter(line -> line.startsWith(prefix))
                    .mapToLong(line -> statField(line.substring(prefix.length()), "calls"))
                    .sum();
        }
        return total;
    }

    /** {@code CONFIG RESETSTAT} on every master. */
    public void resetStats() {
        nodes.masters.forEach(master -> nodes.on(master, "CONFIG", "RESETSTAT"));
    }

    /**
     * {@code FUNCTION FLUSH} on every master, as a restart without persistence would leave them:
     * the next call of any function meets "function not found". Replicas follow their masters.
     */
    public void functionFlush() {
        nodes.masters.forEach(master -> nodes.on(master, "FUNCTION", "FLUSH", "SYNC"));
    }

    /**
     * Runs one command on the first master (the only node of a single server) and returns its
     * reply as text: lists are rendered by {@link List#toString()}, nil is {@code null}.
     */
    public String admin(String... command) {
        Object reply = nodes.on(nodes.masters.getFirst(), command);
        return reply == null ? null : reply.toString();
    }

    /** Runs one command on the given node; see {@link #admin(String...)}. */
    public String adminOn(RedisNode node, String... command) {
        Object reply = command(node, command);
        return reply == null ? null : reply.toString();
    }

    /**
     * Runs one command on the given node and returns its reply as plain values: {@code String},
     * {@code Long}, {@code List<Object>} or {@code null}. An error reply is thrown as an
     * {@link IllegalStateException}.
     */
    public Object command(RedisNode node, String... command) {
        return nodes.on(nodes.uriFor(node), command);
    }

    /** Runs one command on every master, in {@link #masters()} order. */
    public List<Object> commandOnMasters(String... command) {
        return nodes.masters.stream().map(master -> nodes.on(master, command)).toList();
    }

    @Override
    public String toString() {
        return "RedisTarget[" + description + ", masters " + masters() + "]";
    }

    private static List<Map<String, String>> clientList(RespConnection redis, String type) {
        Object list = type == null ? redis.call("CLIENT", "LIST") : redis.call("CLIENT", "LIST", "TYPE", type);
        return list == null ? List.of() : ((String) list).lines().map(RedisTarget::clientFields).toList();
    }

    private static Map<String, String> clientFields(String line) {
        Map<String, String> fields = new LinkedHashMap<>();
        for (String field : line.strip().split(" ")) {
            int eq = field.indexOf('=');
            if (eq > 0) {
                fields.put(field.substring(0, eq), field.substring(eq + 1));
            }
        }
        return fields;
    }

    private static long statField(String stats, String name) {
        for (String field : stats.split(",")) {
            int eq = field.indexOf('=');
            if (eq > 0 && field.substring(0, eq).equals(name)) {
                return Long.parseLong(field.substring(eq + 1));
            }
        }
        return 0;
    }

    private static String globEscape(String text) {
        StringBuilder escaped = new StringBuilder(text.length());
        for (char c : text.toCharArray()) {
            if ("*?[]\\".indexOf(c) >= 0) {
                escaped.append('\\');
            }
            escaped.append(c);
        }
        return escaped.toString();
    }

    private static String randomHex(int digits) {
        byte[] bytes = new byte[(digits + 1) / 2];
        ThreadLocalRandom.current().nextBytes(bytes);
        return HexFormat.of().formatHex(bytes).substring(0, digits);
    }
}
