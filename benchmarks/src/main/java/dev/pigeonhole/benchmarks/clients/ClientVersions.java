package dev.pigeonhole.benchmarks.clients;

import dev.pigeonhole.adapter.redis.RedisClientKind;
import io.lettuce.core.resource.EpollProvider;
import io.netty.channel.epoll.Epoll;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Properties;

/**
 * Which version of each client, and of Netty, this JVM runs, read from the classpath at run time:
 * the {@code pom.properties} Maven puts in a jar (which the shaded jar keeps), else the package's
 * {@code Implementation-Version}, else the version the jar was built with, marked as such. And how
 * each client reaches Redis.
 */
final class ClientVersions {

    /** The row of {@link Measurements#VERSIONS} that holds Netty's version rather than a client's. */
    static final String NETTY = "NETTY";

    private ClientVersions() {
    }

    static List<Measurements.Version> of(List<RedisClientKind> clients) {
        List<Measurements.Version> versions = new ArrayList<>();
        for (RedisClientKind client : clients) {
            versions.add(new Measurements.Version(client.name(), version(client), transport(client)));
        }
        versions.add(new Measurements.Version(NETTY, read("io.netty", "netty-common", "io.netty.util.Version", NETTY),
                "shared by Lettuce and Redisson"));
        return versions;
    }

    private static String version(RedisClientKind client) {
        return switch (client) {
            case JEDIS -> read("redis.clients", "jedis", "redis.clients.jedis.Jedis", client.name());
            case LETTUCE -> read("io.lettuce", "lettuce-core", "io.lettuce.core.RedisClient", client.name());
            case REDISSON -> read("org.redisson", "redisson", "org.redisson.Redisson", client.name());
            case GLIDE -> read("io.valkey", "valkey-glide", "glide.api.GlideClient", client.name());
        };
    }

    /** How a client's calls travel; Lettuce's transport as Lettuce itself decides it in this JVM. */
    static String transport(RedisClientKind client) {
        return switch (client) {
            case JEDIS -> "blocking JDK sockets, a pooled connection per caller";
            case LETTUCE -> "Netty " + (lettuceOnEpoll() ? "epoll" : "NIO") + ", one multiplexed connection";
            case REDISSON -> "Netty " + (Epoll.isAvailable() ? "epoll" : "NIO") + ", a pool of connections per node";
            case GLIDE -> "its own Rust core through JNI, no Netty";
        };
    }

    private static boolean lettuceOnEpoll() {
        // Lettuce's own switch, read as it reads it, then whether Netty's native library loaded.
        return Boolean.parseBoolean(System.getProperty("io.lettuce.core.epoll", "true")) && EpollProvider.isAvailable();
    }

    /** A library's version as its jar says it, or as this jar was built with it, or "unknown". */
    private static String read(String group, String artifact, String marker, String builtKey) {
        return pomVersion(group, artifact)
                .or(() -> manifestVersion(marker))
                .or(() -> built(builtKey).map(version -> version + " as built"))
                .orElse("unknown");
    }

    private static Optional<String> pomVersion(String group, String artifact) {
        return properties("/META-INF/maven/" + group + "/" + artifact + "/pom.properties")
                .map(p -> p.getProperty("version"));
    }

    private static Optional<String> manifestVersion(String marker) {
        try {
            Package found = Class.forName(marker, false, ClientVersions.class.getClassLoader()).getPackage();
            return Optional.ofNullable(found == null ? null : found.getImplementationVersion());
        } catch (ClassNotFoundException e) {
            return Optional.empty();
        }
    }

    private static Optional<String> built(String key) {
        return properties("built-versions.properties").map(p -> p.getProperty(key))
                .filter(version -> !version.isBlank() && !version.startsWith("${"));
    }

    private static Optional<Properties> properties(String resource) {
        try (InputStream in = ClientVersions.class.getResourceAsStream(resource)) {
            if (in == null) {
                return Optional.empty();
            }
            Properties properties = new Properties();
            properties.load(in);
            return Optional.of(properties);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
