package dev.pigeonhole.benchmarks.floors;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.Pipeline;
import redis.clients.jedis.commands.ProtocolCommand;
import redis.clients.jedis.params.ScanParams;
import redis.clients.jedis.resps.LibraryInfo;
import redis.clients.jedis.resps.ScanResult;
import redis.clients.jedis.util.SafeEncoder;

/**
 * The benchmark's own connection to the Redis the adapter uses: it reads the counters, loads and
 * calls the floors, and sets up and clears state with plain commands, which no script count sees.
 * One plain Jedis connection, used by one thread.
 */
final class Direct implements AutoCloseable {

    static final String LIBRARY = "pigeonhole_floors";
    private static final String SOURCE = "dev/pigeonhole/benchmarks/floors/pigeonhole_floors.lua";

    private final Jedis jedis;

    Direct(URI url) {
        this.jedis = new Jedis(url);
    }

    /** The script commands' calls and time so far. */
    CommandStats scripts() {
        return CommandStats.scripts(jedis.info("commandstats"));
    }

    String redisVersion() {
        for (String line : jedis.info("server").split("\\R")) {
            if (line.startsWith("redis_version:")) {
                return line.substring("redis_version:".length()).strip();
            }
        }
        return "unknown";
    }

    /**
     * Loads the floors library, replacing an earlier copy, and answers each function's
     * description by its name: the commands it runs, as the library's source says them.
     */
    Map<String, String> loadFloors() {
        jedis.functionLoadReplace(resource());
        Map<String, String> descriptions = new LinkedHashMap<>();
        for (LibraryInfo library : jedis.functionList(LIBRARY)) {
            for (Map<String, Object> function : library.getFunctions()) {
                descriptions.put(text(function.get("name")), text(function.get("description")));
            }
        }
        return descriptions;
    }

    /** Runs the floor of a call the adapter made, with the call's keys and arguments. */
    Object floor(Call call) {
        return jedis.fcall(call.floor(), call.keys(), call.args());
    }

    /** Runs one command line as it stands, for a check before redis-benchmark repeats it. */
    Object command(List<String> line) {
        ProtocolCommand command = () -> SafeEncoder.encode(line.getFirst());
        return jedis.sendCommand(command, line.subList(1, line.size()).toArray(String[]::new));
    }

    /** Plain commands in one round trip, answered in order. */
    List<Object> pipelined(List<List<String>> lines) {
        Pipeline pipeline = jedis.pipelined();
        for (List<String> line : lines) {
            ProtocolCommand command = () -> SafeEncoder.encode(line.getFirst());
            pipeline.sendCommand(command, line.subList(1, line.size()).toArray(String[]::new));
        }
        return pipeline.syncAndReturnAll();
    }

    /** Deletes every key under the prefix, synchronously: no freeing in the background during a count. */
    void wipe(String prefix) {
        ScanParams match = new ScanParams().match(prefix + "*").count(1_000);
        String cursor = ScanParams.SCAN_POINTER_START;
        do {
            ScanResult<String> page = jedis.scan(cursor, match);
            if (!page.getResult().isEmpty()) {
                jedis.del(page.getResult().toArray(String[]::new));
            }
            cursor = page.getCursor();
        } while (!cursor.equals(ScanParams.SCAN_POINTER_START));
    }

    /** Takes the floors library away again. */
    void unloadFloors() {
        jedis.functionDelete(LIBRARY);
    }

    static String text(Object value) {
        return value instanceof byte[] bytes ? new String(bytes, StandardCharsets.UTF_8) : String.valueOf(value);
    }

    private static String resource() {
        try (InputStream in = Direct.class.getClassLoader().getResourceAsStream(SOURCE)) {
            if (in == null) {
                throw new IllegalStateException("missing " + SOURCE + " on the classpath");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        jedis.close();
    }
}
