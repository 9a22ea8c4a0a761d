package dev.pigeonhole.benchmarks.load;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Optional;

/** The connections benchmark's command line, parsed by hand as {@link LoadOptions} is. */
record ConnectionsOptions(URI url, int sockets, Optional<Long> serverPid, int chatMembers, int groupSize,
                          int warmupSockets, int rounds, Duration timeLimit, Optional<Path> out) {

    static final String USAGE = """
            usage: ConnectionsBenchmark [--url http://127.0.0.1:8080] [--sockets 1000] [--server-pid PID]
                                        [--chat-members 999] [--group-size 10] [--warmup-sockets 200]
                                        [--rounds 5] [--time-limit PT10M] [--out result.json]""";

    static ConnectionsOptions parse(String[] args) {
        URI url = URI.create("http://127.0.0.1:8080");
        int sockets = 1000;
        Long pid = null;
        int chatMembers = 999;
        int groupSize = 10;
        int warmup = 200;
        int rounds = 5;
        Duration timeLimit = Duration.ofMinutes(10);
        Path out = null;
        for (int i = 0; i < args.length; i++) {
            String flag = args[i];
            if (flag.equals("--help") || flag.equals("-h")) {
                throw new IllegalArgumentException(USAGE);
            }
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException(flag + " needs a value");
            }
            String value = args[++i];
            switch (flag) {
                case "--url" -> url = URI.create(value.endsWith("/") ? value.substring(0, value.length() - 1) : value);
                case "--sockets" -> sockets = atLeast(flag, value, 100);
                case "--server-pid" -> pid = (long) atLeast(flag, value, 1);
                case "--chat-members" -> chatMembers = atLeast(flag, value, 2);
                case "--group-size" -> groupSize = atLeast(flag, value, 0);
                case "--warmup-sockets" -> warmup = atLeast(flag, value, 0);
                case "--rounds" -> rounds = atLeast(flag, value, 1);
                case "--time-limit" -> timeLimit = duration(flag, value);
                case "--out" -> out = Path.of(value);
                default -> throw new IllegalArgumentException("unknown option " + flag + "\n" + USAGE);
            }
        }
        if (chatMembers > sockets) {
            throw new IllegalArgumentException("--chat-members " + chatMembers + " exceeds --sockets " + sockets);
        }
        if (groupSize == 1) {
            throw new IllegalArgumentException("--group-size must be 0 (no groups) or at least 2");
        }
        if (!"http".equals(url.getScheme())) {
            throw new IllegalArgumentException("--url must be http: " + url);
        }
        return new ConnectionsOptions(url, sockets, Optional.ofNullable(pid), chatMembers, groupSize, warmup, rounds,
                timeLimit, Optional.ofNullable(out));
    }

    private static int atLeast(String flag, String value, int min) {
        try {
            int n = Integer.parseInt(value);
            if (n >= min) {
                return n;
            }
        } catch (NumberFormatException ignored) {
            // falls through to the one message for every bad value
        }
        throw new IllegalArgumentException(flag + " must be an integer of at least " + min + ": " + value);
    }

    private static Duration duration(String flag, String value) {
        try {
            Duration d = Duration.parse(value);
            if (d.isPositive()) {
                return d;
            }
        } catch (DateTimeParseException ignored) {
            // falls through
        }
        throw new IllegalArgumentException(flag + " must be a positive ISO-8601 duration (PT10M): " + value);
    }
}
