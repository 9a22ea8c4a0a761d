package dev.pigeonhole.benchmarks.load;

import dev.pigeonhole.benchmarks.cli.CommandLines;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The load generator's command line, read by picocli ({@link Flags}) and checked here.
 *
 * <p>Two scenarios: {@code chats} (the default), users spread over chats, each chat a small
 * room; and {@code fanout}, {@code --sockets} users with a socket each in one chat, where what
 * counts is how long a message takes to reach the last of them.
 */
record LoadOptions(URI url, int users, int chats, double rate, Duration duration, Duration warmup,
                   Optional<Path> out, String label, String scenario) {

    static final String CHATS = "chats";
    static final String FANOUT = "fanout";

    /**
     * The flags as typed. Those whose default depends on the scenario are null when not given,
     * so that {@link #options()} can tell a default from a choice.
     */
    @Command(name = "LoadGenerator", sortOptions = false,
            description = "End-to-end load on a running server: users in chats, one live socket each, sends at a fixed rate.")
    static final class Flags {
        @Option(names = {"-h", "--help"}, usageHelp = true, description = "this help")
        boolean help;
        @Option(names = "--url", defaultValue = "http://127.0.0.1:8080", description = "the server (default: ${DEFAULT-VALUE})")
        String url;
        @Option(names = "--scenario", defaultValue = CHATS,
                description = "chats (users spread over chats) or fanout (--sockets users in one chat) (default: ${DEFAULT-VALUE})")
        String scenario;
        @Option(names = "--users", description = "users, one socket each, chats scenario (default: 100)")
        Integer users;
        @Option(names = "--chats", description = "chats the users are spread over, chats scenario (default: 10)")
        Integer chats;
        @Option(names = "--sockets", description = "users in the one chat, fanout scenario (default: 100)")
        Integer sockets;
        @Option(names = "--rate", description = "sends a second (default: 200; 100 in the fanout scenario)")
        Double rate;
        @Option(names = "--duration", defaultValue = "30s", description = "the measured window, e.g. 30s or PT30S (default: ${DEFAULT-VALUE})")
        Duration duration;
        @Option(names = "--warmup", defaultValue = "5s", description = "sends before it that are not counted (default: ${DEFAULT-VALUE})")
        Duration warmup;
        @Option(names = "--out", description = "where the JSON result goes (default: none)")
        Path out;
        @Option(names = "--label", defaultValue = "unnamed", description = "the store's name in the result (default: ${DEFAULT-VALUE})")
        String label;

        LoadOptions options() {
            if (!scenario.equals(CHATS) && !scenario.equals(FANOUT)) {
                throw new IllegalArgumentException("--scenario is " + CHATS + " or " + FANOUT + ": " + scenario);
            }
            int u;
            int c;
            double r;
            if (scenario.equals(FANOUT)) {
                if (users != null || chats != null) {
                    throw new IllegalArgumentException("--scenario fanout puts --sockets users in one chat: leave out --users and --chats");
                }
                u = positive("--sockets", sockets == null ? 100 : sockets);
                c = 1;
                r = rate == null ? 100 : rate;
            } else {
                if (sockets != null) {
                    throw new IllegalArgumentException("--sockets is for --scenario fanout; the chats scenario opens one per --users");
                }
                u = positive("--users", users == null ? 100 : users);
                c = positive("--chats", chats == null ? 10 : chats);
                r = rate == null ? 200 : rate;
            }
            if (!(r > 0) || !Double.isFinite(r)) {
                throw new IllegalArgumentException("--rate must be a positive number: " + r);
            }
            if (c > u) {
                throw new IllegalArgumentException("--chats " + c + " exceeds --users " + u + ": a chat needs a member");
            }
            if (!duration.isPositive()) {
                throw new IllegalArgumentException("--duration must be positive: " + duration);
            }
            if (warmup.isNegative()) {
                throw new IllegalArgumentException("--warmup must be zero or more: " + warmup);
            }
            URI uri = URI.create(url.endsWith("/") ? url.substring(0, url.length() - 1) : url);
            if (!"http".equals(uri.getScheme()) && !"https".equals(uri.getScheme())) {
                throw new IllegalArgumentException("--url must be http(s): " + uri);
            }
            return new LoadOptions(uri, u, c, r, duration, warmup, Optional.ofNullable(out), label, scenario);
        }

        private static int positive(String flag, int n) {
            if (n <= 0) {
                throw new IllegalArgumentException(flag + " must be a positive integer: " + n);
            }
            return n;
        }
    }

    /** The command line checked; IllegalArgumentException when it is wrong. */
    static LoadOptions parse(String... args) {
        Flags flags = new Flags();
        return CommandLines.parse(flags, args, flags::options);
    }

    /** The chat a user belongs to: round-robin, so chat sizes differ by at most one. */
    int chatOf(int user) {
        return user % chats;
    }

    /** How many users share chat {@code chat}. */
    int membersOf(int chat) {
        return users / chats + (chat < users % chats ? 1 : 0);
    }
}
