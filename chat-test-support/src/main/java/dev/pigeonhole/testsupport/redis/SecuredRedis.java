package dev.pigeonhole.testsupport.redis;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * A private Redis, one node or a cluster of three masters, that lets no one in without a password:
 * its {@code default} user is switched off, the application signs in as {@value #USER} with the
 * permissions the project's README grants that user ({@link #readmeAclRules}), and the helpers of
 * {@link #admin()} sign in as a fixture user that may do anything. Built by the tests of
 * credentials and permissions only, and stopped by its handle.
 *
 * <p>The servers start and the cluster forms as usual, unsecured (the cluster bus does not
 * authenticate); the users are set on every node afterwards, through the {@code default} user,
 * which goes last.
 */
public final class SecuredRedis implements AutoCloseable {

    /** The user the README's ACL line creates, as whom the application signs in. */
    public static final String USER = "pigeonhole";
    /** The start of the README's line: the user's name follows {@code ACL SETUSER}. */
    private static final String README_LINE = "ACL SETUSER " + USER + " ";
    private static final String ADMIN = "ph-fixture-admin";

    /** How the application reaches a single node. */
    public enum Transport {
        PLAIN,
        /** TLS only, the server's certificate signed by the test CA ({@link #certificates()}). */
        TLS,
        /** TLS, and the server admits only a client presenting a certificate the test CA signed. */
        TLS_CLIENT_CERTIFICATE
    }

    private final AutoCloseable servers;
    private final RedisCertificates certificates;
    private final RedisTarget admin;
    private final String address;
    private final String password = "pw-" + UUID.randomUUID();

    private SecuredRedis(AutoCloseable servers, RedisTarget open, boolean cluster, String prefix) {
        this(servers, open, cluster, prefix, null);
    }

    private SecuredRedis(AutoCloseable servers, RedisTarget open, boolean cluster, String prefix,
                         RedisCertificates certificates) {
        this.servers = servers;
        this.certificates = certificates;
        String adminPassword = "admin-" + UUID.randomUUID();
        List<String> grant = new ArrayList<>(List.of("ACL", "SETUSER", USER));
        grant.addAll(readmeAclRules(prefix, password));
        for (RedisNode node : open.nodes()) {
            open.command(node, "ACL", "SETUSER", ADMIN, "on", ">" + adminPassword, "~*", "&*", "+@all");
            open.command(node, grant.toArray(String[]::new));
            open.command(node, "ACL", "SETUSER", "default", "off");
        }
        String userInfo = ADMIN + ":" + adminPassword;
        this.address = cluster ? open.address() : "redis://127.0.0.1:" + open.masters().getFirst().port();
        this.admin = cluster
                ? RedisTarget.cluster("secured cluster " + address, address, userInfo,
                        certificates == null ? null : certificates.socketFactory())
                : certificates == null
                ? RedisTarget.single("secured " + address, "redis://" + userInfo + "@127.0.0.1:" + open.masters().getFirst().port())
                : RedisTarget.single("secured " + address, "rediss://" + userInfo + "@127.0.0.1:" + open.masters().getFirst().port(),
                        certificates.socketFactory());
    }

    /** One node, whose {@value #USER} may use the keys and channels that start with {@code prefix}. */
    public static SecuredRedis single(String prefix) {
        LocalRedisServer server = LocalRedisServer.start();
        try {
            return new SecuredRedis(server, server.target(), false, prefix);
        } catch (RuntimeException e) {
            server.close();
            throw e;
        }
    }

    /**
     * One node reached over {@code transport}, whose {@value #USER} may use the keys and channels
     * that start with {@code prefix}. Over TLS its {@link #address()} is still {@code redis://}:
     * the test turns TLS on in its settings, with the CA of {@link #certificates()}.
     */
    public static SecuredRedis single(String prefix, Transport transport) {
        if (transport == Transport.PLAIN) {
            return single(prefix);
        }
        RedisCertificates certificates = RedisCertificates.make();
        LocalRedisServer server;
        try {
            server = LocalRedisServer.startTls(certificates, transport == Transport.TLS_CLIENT_CERTIFICATE);
        } catch (RuntimeException e) {
            certificates.delete();
            throw e;
        }
        try {
            return new SecuredRedis(server, server.target(), false, prefix, certificates);
        } catch (RuntimeException e) {
            server.close();
            certificates.delete();
            throw e;
        }
    }

    /**
     * A cluster of three masters speaking TLS only (to clients and on the bus), whose
     * {@value #USER} may use the keys and channels that start with {@code prefix}.
     */
    public static SecuredRedis clusterOverTls(String prefix) {
        RedisCertificates certificates = RedisCertificates.make();
        LocalRedisCluster cluster;
        try {
            cluster = LocalRedisCluster.startTls(certificates);
        } catch (RuntimeException e) {
            certificates.delete();
            throw e;
        }
        try {
            return new SecuredRedis(cluster, cluster.target(), true, prefix, certificates);
        } catch (RuntimeException e) {
            cluster.close();
            certificates.delete();
            throw e;
        }
    }

    /** A cluster of three masters, whose {@value #USER} may use the keys and channels that start with {@code prefix}. */
    public static SecuredRedis cluster(String prefix) {
        LocalRedisCluster cluster = LocalRedisCluster.start();
        try {
            return new SecuredRedis(cluster, cluster.target(), true, prefix);
        } catch (RuntimeException e) {
            cluster.close();
            throw e;
        }
    }

    /** Where the application connects, without credentials: {@code redis://host:port}, or the cluster's seeds. */
    public String address() {
        return address;
    }

    /** The certificates of a node started over TLS. */
    public RedisCertificates certificates() {
        if (certificates == null) {
            throw new IllegalStateException(this + " does not speak TLS");
        }
        return certificates;
    }

    /** The password of {@value #USER}. */
    public String password() {
        return password;
    }

    /** The helpers, signed in as the fixture's own user, which may do anything. */
    public RedisTarget admin() {
        return admin;
    }

    /** Creates or changes a user on every node: {@code ACL SETUSER name rules...}. */
    public void setUser(String name, String... rules) {
        List<String> command = new ArrayList<>(List.of("ACL", "SETUSER", name));
        command.addAll(List.of(rules));
        for (RedisNode node : admin.nodes()) {
            admin.command(node, command.toArray(String[]::new));
        }
    }

    /**
     * The rules of the README's {@code ACL SETUSER pigeonhole ...} line, the one operators copy,
     * with its {@code PASSWORD} and {@code PREFIX} filled in: the tests grant exactly what the
     * documentation does, so the line cannot fall behind what the adapter needs.
     */
    public static List<String> readmeAclRules(String prefix, String password) {
        String line = readme().lines().map(String::strip).filter(text -> text.startsWith(README_LINE)).findFirst()
                .orElseThrow(() -> new IllegalStateException("the README has no line starting '" + README_LINE + "'"));
        return List.of(line.substring(README_LINE.length()).strip()
                .replace("PASSWORD", password).replace("PREFIX", prefix).split("\\s+"));
    }

    /** The project's README.md, found from the module a test runs in upwards. */
    private static String readme() {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            Path readme = dir.resolve("README.md");
            if (Files.isRegularFile(readme) && Files.isRegularFile(dir.resolve("mvnw"))) {
                try {
                    return Files.readString(readme);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
        }
        throw new IllegalStateException("no README.md beside mvnw above " + Path.of("").toAbsolutePath());
    }

    /** Stops every server and deletes their directories. Idempotent. */
    @Override
    public void close() {
        try {
            servers.close();
        } catch (Exception e) {
            throw new IllegalStateException("could not stop " + this, e);
        } finally {
            if (certificates != null) {
                certificates.delete();
            }
        }
    }

    @Override
    public String toString() {
        return "SecuredRedis[" + address + "]";
    }
}
