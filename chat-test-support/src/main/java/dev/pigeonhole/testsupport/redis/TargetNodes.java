package dev.pigeonhole.testsupport.redis;

import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import javax.net.ssl.SSLSocketFactory;

/**
 * The nodes of a {@link RedisTarget} and how its helpers reach them: the one node, or every node a
 * cluster reports (not only its seeds), each as a URL with whatever credentials sign in to it,
 * and one short-lived connection per call, named {@value RedisTarget#ADMIN_CLIENT_NAME}, over TLS
 * when the target uses it. A connection per call keeps the helpers thread-safe and out of the
 * count of a test's own connections.
 */
final class TargetNodes {

    private static final Duration TIMEOUT = Duration.ofSeconds(5);

    /** Every master (the one node, on a single server). */
    final List<URI> masters;
    /** Every node, replicas included. */
    final List<URI> all;
    /** How a {@code rediss://} node is reached; null for the JDK's defaults. */
    private final SSLSocketFactory tls;

    private TargetNodes(List<URI> masters, List<URI> all, SSLSocketFactory tls) {
        this.masters = List.copyOf(masters);
        this.all = List.copyOf(all);
        this.tls = tls;
    }

    /** One node at {@code redis://[[user]:password@]host[:port][/db]}, or {@code rediss://} through {@code tls}. */
    static TargetNodes single(String description, String url, SSLSocketFactory tls) {
        URI uri = URI.create(url);
        if (uri.getHost() == null || !List.of("redis", "rediss").contains(uri.getScheme())) {
            throw new IllegalArgumentException(description + " is not a Redis URL, redis://host:port");
        }
        if (uri.getPort() == -1) {
            uri = withPort(uri, 6379);
        }
        return new TargetNodes(List.of(uri), List.of(uri), tls);
    }

    /**
     * The nodes of a cluster as the first seed that answers {@code CLUSTER NODES} lists them,
     * leaving out those failed, without an address or still shaking hands; signed in to as
     * {@code userInfo} ({@code user:password}, percent-encoded as in a URL), or as nobody when null.
     */
    static TargetNodes cluster(String seeds, String userInfo, SSLSocketFactory tls) {
        RuntimeException last = null;
        for (String seed : seeds.split(",")) {
            if (seed.isBlank()) {
                continue;
            }
            try {
                String clusterNodes = (String) call(signedIn(RedisNode.parse(seed.strip()).uri(tls != null), userInfo), tls,
                        "CLUSTER", "NODES");
                List<URI> masters = new ArrayList<>();
                List<URI> all = new ArrayList<>();
                for (String line : clusterNodes.lines().toList()) {
                    String[] fields = line.split(" ");
                    if (fields.length < 3) {
                        continue;
                    }
                    String address = fields[1].split("[@,]")[0];
                    Set<String> flags = Set.of(fields[2].split(","));
                    if (address.startsWith(":") || flags.contains("fail") || flags.contains("noaddr")
                            || flags.contains("handshake")) {
                        continue;
                    }
                    URI uri = signedIn(RedisNode.parse(address).uri(tls != null), userInfo);
                    all.add(uri);
                    if (flags.contains("master")) {
                        masters.add(uri);
                    }
                }
                if (masters.isEmpty()) {
                    throw new IllegalStateException("CLUSTER NODES on " + seed + " lists no master:\n" + clusterNodes);
                }
                return new TargetNodes(masters, all, tls);
            } catch (RuntimeException e) {
                last = e;
            }
        }
        throw new IllegalStateException("no seed of " + seeds + " answered CLUSTER NODES", last);
    }

    /** One command on {@code node}, a {@code rediss://} one through {@code tls}. */
    static Object call(URI node, SSLSocketFactory tls, String... command) {
        try (RespConnection redis = RespConnection.open(node, TIMEOUT, RedisTarget.ADMIN_CLIENT_NAME, tls)) {
            return redis.call(command);
        }
    }

    /** One command on {@code node}, as the target reaches it. */
    Object on(URI node, String... command) {
        return withConnection(node, redis -> redis.call(command));
    }

    /** Several commands on one connection to {@code node}, as the target reaches it. */
    <T> T withConnection(URI node, Function<RespConnection, T> work) {
        try (RespConnection redis = RespConnection.open(node, TIMEOUT, RedisTarget.ADMIN_CLIENT_NAME, tls)) {
            return work.apply(redis);
        }
    }

    /** The URL the target knows for the node (with its credentials), or a plain one. */
    URI uriFor(RedisNode node) {
        return all.stream().filter(uri -> node(uri).equals(node)).findFirst().orElseGet(node::uri);
    }

    static RedisNode node(URI uri) {
        return new RedisNode(uri.getHost(), uri.getPort());
    }

    private static URI signedIn(URI uri, String userInfo) {
        return userInfo == null ? uri : URI.create(uri.getScheme() + "://" + userInfo + "@" + uri.getHost() + ":" + uri.getPort());
    }

    private static URI withPort(URI uri, int port) {
        try {
            return new URI(uri.getScheme(), uri.getUserInfo(), uri.getHost(), port, uri.getPath(), uri.getQuery(),
                    uri.getFragment());
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("not a Redis URL: " + uri, e);
        }
    }
}
