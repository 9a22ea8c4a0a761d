package dev.pigeonhole.benchmarks.load;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Optional;

/**
 * The load generator's command line. Parsed by hand: a handful of flags does not justify a
 * dependency the report tooling would then have to share.
 *
 * <p>Two scenarios: {@code chats} (the default), users spread over chats, each chat a small
 * room; and {@code fanout}, {@code --sockets} users with a socket each in one chat, where what
 * counts is how long a message takes to reach the last of them.
 */
record LoadOptions(URI url, int users, int chats, double rate, Duration duration, Duration warmup,
                   Optional<Path> out, String label, String scenario) {

    static final String CHATS = "chats";
    static final String FANOUT = "fanout";

    static final String USAGE = """
            usage: LoadGenerator [--url http://127.0.0.1:8080] [--users 100] [--chats 10]
                                 [--rate 200] [--duration PT30S] [--warmup PT5S]
                                 [--out result.json] [--label memory]
                   LoadGenerator --scenario fanout [--sockets 100] [--rate 100] [the other options but --users, --chats]""";

    static LoadOptions parse(String[] args) {
        URI url = URI.create("http://127.0.0.1:8080");
        int users = 100;
        int chats = 10;
        double rate = 200;
        Duration duration = Duration.ofSeconds(30);
        Duration warmup = Duration.ofSeconds(5);
        Path out = null;
        String label = "unnamed";
        String scenario = CHATS;
        Integer sockets = null;
        boolean roomsGiven = false;
        boolean rateGiven = false;
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
                case "--users" -> {
                    users = positiveInt(flag, value);
                    roomsGiven = true;
                }
                case "--chats" -> {
                    chats = positiveInt(flag, value);
                    roomsGiven = true;
                }
                case "--scenario" -> scenario = scenario(value);
                case "--sockets" -> sockets = positiveInt(flag, value);
                case "--rate" -> {
                    rate = positiveDouble(flag, value);
                    rateGiven = true;
                }
                case "--duration" -> duration = duration(flag, value, false);
                case "--warmup" -> warmup = duration(flag, value, true);
                case "--out" -> out = Path.of(value);
                case "--label" -> label = value;
                default -> throw new IllegalArgumentException("unknown option " + flag + "\n" + USAGE);
            }
        }
        if (scenario.equals(FANOUT)) {
            if (roomsGiven) {
                throw new IllegalArgumentException("--scenario fanout puts --sockets users in one chat: leave out --users and --chats");
            }
            users = sockets == null ? 100 : sockets;
            chats = 1;
            rate = rateGiven ? rate : 100;
        } else if (sockets != null) {
            throw new IllegalArgumentException("--sockets is for --scenario fanout; the chats scenario opens one per --users");
        }
        if (chats > users) {
            throw new IllegalArgumentException("--chats " + chats + " exceeds --users " + users + ": a chat needs a member");
        }
        if (!"http".equals(url.getScheme()) && !"https".equals(url.getScheme())) {
            throw new IllegalArgumentException("--url must be http(s): " + url);
        }
        return new LoadOptions(url, users, chats, rate, duration, warmup, Optional.ofNullable(out), label, scenario);
    }

    private static String scenario(String value) {
        if (value.equals(CHATS) || value.equals(FANOUT)) {
            return value;
        }
        throw new IllegalArgumentException("--scenario is " + CHATS + " or " + FANOUT + ": " + value);
    }

    private static int positiveInt(String flag, String value) {
        try {
            int n = Integer.parseInt(value);
            if (n > 0) {
                return n;
            }
        } catch (NumberFormatException ignored) {
            // falls through to the one message for every bad value
        }
        throw new IllegalArgumentException(flag + " must be a positive integer: " + value);
    }

    private static double positiveDouble(String flag, String value) {
        try {
            double d = Double.parseDouble(value);
            if (d > 0 && Double.isFinite(d)) {
                return d;
            }
        } catch (NumberFormatException ignored) {
            // falls through to the one message for every bad value
        }
        throw new IllegalArgumentException(flag + " must be a positive number: " + value);
    }

    /** ISO-8601 (PT30S) as asked for, and a bare "30s" / "30" because people type that. */
    private static Duration duration(String flag, String value, boolean zeroAllowed) {
        Duration d;
        try {
            String v = value.trim();
            if (v.toUpperCase().startsWith("P")) {
                d = Duration.parse(v);
            } else {
                d = Duration.ofMillis(Math.round(Double.parseDouble(v.endsWith("s") ? v.substring(0, v.length() - 1) : v) * 1000));
            }
        } catch (DateTimeParseException | NumberFormatException e) {
            throw new IllegalArgumentException(flag + " is not a duration (e.g. PT30S): " + value);
        }
        if (d.isNegative() || (!zeroAllowed && d.isZero())) {
            throw new IllegalArgumentException(flag + " must be " + (zeroAllowed ? "zero or more" : "positive") + ": " + value);
        }
        return d;
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
