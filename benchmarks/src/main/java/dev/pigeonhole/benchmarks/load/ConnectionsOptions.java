package dev.pigeonhole.benchmarks.load;

import dev.pigeonhole.benchmarks.cli.CommandLines;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** The connections benchmark's command line, read by picocli ({@link Flags}) and checked here. */
record ConnectionsOptions(URI url, int sockets, Optional<Long> serverPid, int chatMembers, int groupSize,
                          int warmupSockets, int rounds, Duration timeLimit, Optional<Path> out) {

    @Command(name = "ConnectionsBenchmark", sortOptions = false,
            description = "Many live sockets on a running server: connect rate, memory per idle socket, fan-out to a large chat.")
    static final class Flags {
        @Option(names = {"-h", "--help"}, usageHelp = true, description = "this help")
        boolean help;
        @Option(names = "--url", defaultValue = "http://127.0.0.1:8080", description = "the server (default: ${DEFAULT-VALUE})")
        String url;
        @Option(names = "--sockets", defaultValue = "1000", description = "users, one socket each, at least 100 (default: ${DEFAULT-VALUE})")
        int sockets;
        @Option(names = "--server-pid", description = "the server's process, for its memory and CPU time (default: not measured)")
        Long serverPid;
        @Option(names = "--chat-members", defaultValue = "999", description = "members of the large chat (default: ${DEFAULT-VALUE})")
        int chatMembers;
        @Option(names = "--group-size", defaultValue = "10", description = "size of each user's small group, 0 for none (default: ${DEFAULT-VALUE})")
        int groupSize;
        @Option(names = "--warmup-sockets", defaultValue = "200", description = "sockets opened and closed first (default: ${DEFAULT-VALUE})")
        int warmupSockets;
        @Option(names = "--rounds", defaultValue = "5", description = "fan-out rounds (default: ${DEFAULT-VALUE})")
        int rounds;
        @Option(names = "--time-limit", defaultValue = "PT10M", description = "the whole run's limit, e.g. 90s or PT10M (default: ${DEFAULT-VALUE})")
        Duration timeLimit;
        @Option(names = "--out", description = "where the JSON result goes (default: none)")
        Path out;

        ConnectionsOptions options() {
            atLeast("--sockets", sockets, 100);
            if (serverPid != null) {
                atLeast("--server-pid", serverPid, 1);
            }
            atLeast("--chat-members", chatMembers, 2);
            atLeast("--group-size", groupSize, 0);
            atLeast("--warmup-sockets", warmupSockets, 0);
            atLeast("--rounds", rounds, 1);
            if (!timeLimit.isPositive()) {
                throw new IllegalArgumentException("--time-limit must be positive: " + timeLimit);
            }
            if (chatMembers > sockets) {
                throw new IllegalArgumentException("--chat-members " + chatMembers + " exceeds --sockets " + sockets);
            }
            if (groupSize == 1) {
                throw new IllegalArgumentException("--group-size must be 0 (no groups) or at least 2");
            }
            URI uri = URI.create(url.endsWith("/") ? url.substring(0, url.length() - 1) : url);
            if (!"http".equals(uri.getScheme())) {
                throw new IllegalArgumentException("--url must be http: " + uri);
            }
            return new ConnectionsOptions(uri, sockets, Optional.ofNullable(serverPid), chatMembers, groupSize,
                    warmupSockets, rounds, timeLimit, Optional.ofNullable(out));
        }

        private static void atLeast(String flag, long value, long min) {
            if (value < min) {
                throw new IllegalArgumentException(flag + " must be an integer of at least " + min + ": " + value);
            }
        }
    }

    /** The command line checked; IllegalArgumentException when it is wrong. */
    static ConnectionsOptions parse(String... args) {
        Flags flags = new Flags();
        return CommandLines.parse(flags, args, flags::options);
    }
}
