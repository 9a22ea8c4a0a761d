package dev.pigeonhole.testsupport.redis;

import dev.pigeonhole.testsupport.ServerProcess;
import org.awaitility.core.ConditionTimeoutException;

import java.net.URI;
import javax.net.ssl.SSLSocketFactory;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;

import static org.awaitility.Awaitility.await;

/**
 * Three cluster-enabled {@code redis-server} processes formed into a cluster of three masters
 * with no replicas. Slots are assigned directly (CLUSTER ADDSLOTSRANGE, then CLUSTER MEET)
 * rather than through {@code redis-cli --cluster create}, which waits in whole seconds and would
 * add a second program to install.
 */
final class LocalCluster {

    static final int MASTERS = 3;
    static final int SLOTS = 16384;
    private static final Duration FORM_TIMEOUT = Duration.ofSeconds(30);

    private LocalCluster() {
    }

    /** Starts and forms the cluster; returns its servers, which the caller owns. */
    static List<ServerProcess> start(Path binary) {
        return start(binary, null);
    }

    /**
     * As {@link #start(Path)}, the nodes speaking TLS only when {@code certificates} is not null:
     * to clients on their TLS ports, which they announce, and to each other on the bus.
     */
    static List<ServerProcess> start(Path binary, RedisCertificates certificates) {
        List<ServerProcess> servers = new ArrayList<>();
        SSLSocketFactory tls = certificates == null ? null : certificates.socketFactory();
        try {
            for (int i = 0; i < MASTERS; i++) {
                servers.add(ServerProcess.start(certificates == null
                        ? new RedisRecipe(binary, true, false, List.of())
                        : new RedisRecipe(binary, true, false, List.of("--tls-cluster", "yes", "--tls-replication", "yes"),
                                new RedisRecipe.Tls(certificates, false))));
            }
            form(servers, tls);
            return servers;
        } catch (RuntimeException e) {
            servers.forEach(ServerProcess::close);
            throw e;
        }
    }

    /** The seed list {@code 127.0.0.1:p1,127.0.0.1:p2,...} of started servers. */
    static String seeds(List<ServerProcess> servers) {
        return servers.stream().map(server -> "127.0.0.1:" + server.port()).collect(Collectors.joining(","));
    }

    private static void form(List<ServerProcess> servers, SSLSocketFactory tls) {
        for (int i = 0; i < servers.size(); i++) {
            URI node = uri(servers.get(i), tls);
            // Distinct epochs up front spare the nodes a round of epoch-collision resolution.
            TargetNodes.call(node, tls, "CLUSTER", "SET-CONFIG-EPOCH", Integer.toString(i + 1));
            long first = (long) SLOTS * i / servers.size();
            long last = (long) SLOTS * (i + 1) / servers.size() - 1;
            TargetNodes.call(node, tls, "CLUSTER", "ADDSLOTSRANGE", Long.toString(first), Long.toString(last));
        }
        // Every pair meets directly, so no node waits for gossip to learn of another.
        for (int i = 0; i < servers.size(); i++) {
            for (ServerProcess other : servers.subList(i + 1, servers.size())) {
                TargetNodes.call(uri(servers.get(i), tls), tls, "CLUSTER", "MEET", "127.0.0.1", Integer.toString(other.port()));
            }
        }
        awaitAgreement(servers, tls);
    }

    /*
     * A node reports cluster_state:ok once it sees every slot covered; a client may still be
     * misrouted until every node maps the slots the same way, so both are awaited.
     */
    private static void awaitAgreement(List<ServerProcess> servers, SSLSocketFactory tls) {
        AtomicReference<String> lastView = new AtomicReference<>("");
        try {
            await().atMost(FORM_TIMEOUT).pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(20))
                    .until(() -> agreed(servers, lastView, tls));
        } catch (ConditionTimeoutException e) {
            throw new IllegalStateException("the local cluster did not reach cluster_state:ok with one slot map within "
                    + FORM_TIMEOUT.toSeconds() + " s; slot maps per node: " + lastView.get(), e);
        }
    }

    /** Whether every node is ok, connected to all others, and maps the slots as the others do. */
    private static boolean agreed(List<ServerProcess> servers, AtomicReference<String> lastView, SSLSocketFactory tls) {
        List<String> views = new ArrayList<>();
        boolean allOk = true;
        for (ServerProcess server : servers) {
            String info = (String) TargetNodes.call(uri(server, tls), tls, "CLUSTER", "INFO");
            boolean ok = info.contains("cluster_state:ok")
                    && info.contains("cluster_known_nodes:" + servers.size())
                    && info.contains("cluster_slots_ok:" + SLOTS);
            String nodes = (String) TargetNodes.call(uri(server, tls), tls, "CLUSTER", "NODES");
            boolean settled = nodes.lines().allMatch(line -> line.contains(" connected")
                    && !line.contains("handshake") && !line.contains("fail"));
            allOk &= ok && settled;
            views.add(slotMap(TargetNodes.call(uri(server, tls), tls, "CLUSTER", "SLOTS")));
        }
        lastView.set(String.join(" | ", views));
        return allOk && views.stream().distinct().count() == 1 && views.getFirst().split(";").length == servers.size();
    }

    /** CLUSTER SLOTS as {@code start-end@port;...}, sorted by start, so two nodes' views compare as text. */
    private static String slotMap(Object clusterSlots) {
        List<String> ranges = new ArrayList<>();
        for (Object entry : (List<?>) clusterSlots) {
            List<?> range = (List<?>) entry;
            List<?> master = (List<?>) range.get(2);
            ranges.add(String.format("%05d-%05d@%s", (Long) range.get(0), (Long) range.get(1), master.get(1)));
        }
        ranges.sort(null);
        return String.join(";", ranges);
    }

    private static URI uri(ServerProcess server, SSLSocketFactory tls) {
        return new RedisNode("127.0.0.1", server.port()).uri(tls != null);
    }
}
