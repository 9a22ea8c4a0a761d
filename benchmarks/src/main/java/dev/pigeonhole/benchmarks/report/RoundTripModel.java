package dev.pigeonhole.benchmarks.report;

import static dev.pigeonhole.benchmarks.report.Formats.usText;
import static dev.pigeonhole.benchmarks.report.JmhResults.score;
import static dev.pigeonhole.benchmarks.report.RunResults.ON_REDIS;

import dev.pigeonhole.benchmarks.Backend;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.stream.DoubleStream;

/**
 * Pending + batch acknowledge at K = 100 against the book's fetch, modelled by round trip. Ours
 * costs 3 round trips whatever K is, the book's 2K + 5: on loopback a round trip costs tens of
 * microseconds, on a network between machines 0.1 to 1 ms, so the ratio measured here says little
 * of the ratio across a network. Each round measures its loopback round trip r just before and
 * just after its pending run ({@link Round#roundTripMicros}); with t = 1 / throughput each side's
 * time per operation in that round and n its round trips, the time outside the network is
 * o = t − n × r, and at a round trip R the model gives t(R) = o + n × R, the ratio
 * t_book(R) ÷ t_ours(R).
 */
final class RoundTripModel {

    /** The chats the reader is in: the pending targets' K. */
    static final int K = 100;
    /**
     * Ours, on a single node, at any K: pending is the user's index then one script over every
     * chat (2), a batch acknowledge one script over every chat (1). {@code RoundTripBudgetTest} in
     * chat-redis-adapter holds the store to these, for Jedis and Lettuce alike, and the use cases
     * PendingBenchmark drives add none: counted in Redis's {@code total_reads_processed} around
     * the same calls, K = 1 and 10 read 2 + 1.
     */
    static final int OURS_ROUND_TRIPS = 3;
    /**
     * The book's fetch as {@code BookChat} runs it on Jedis 8: the ZRANGE of {@code seen:}, a
     * MULTI..EXEC of every chat's ZRANGEBYSCORE, ZADD and ZRANGE of {@code chat:} per chat with
     * news, a MULTI..EXEC of the updates. Jedis reads the queued replies before it sends EXEC, so a
     * MULTI..EXEC is two round trips (redis-py's pipeline makes it one): 1 + 2 + 2K + 2 = 2K + 5.
     * Redis's {@code total_reads_processed} around one fetch reads 7 at K = 1 and 25 at K = 10.
     */
    static final int BOOK_ROUND_TRIPS = 2 * K + 5;
    /** The round trips the page models, in microseconds: a fast LAN to a slow one. */
    static final List<Double> MODELLED_MICROS = List.of(100.0, 500.0, 1_000.0);
    /** The round trip the modelled target is held at. */
    static final double TARGET_MICROS = 500;

    private RoundTripModel() {
    }

    /** One side at K: its measured throughput and the round trips each operation costs. */
    record Side(double opsPerSecond, int roundTrips) {

        double micros() {
            return 1e6 / opsPerSecond;
        }

        /** o = t − n × r; below 0 when n × r overstates what this side waited on the network. */
        double outsideMicros(double roundTrip) {
            return micros() - roundTrips * roundTrip;
        }

        /**
         * t(R) = o + n × R, with o taken as 0 when it came out below: no side spends less than
         * nothing outside the network. For the book, whose 2K + 5 round trips make o the
         * sensitive one, that gives the book its best case.
         */
        double modelledMicros(double roundTrip, double at) {
            return Math.max(0, outsideMicros(roundTrip)) + roundTrips * at;
        }
    }

    /** One round's model for one client: its round trips before and after, and both sides. */
    record Model(int round, OptionalDouble before, OptionalDouble after, Side ours, Side book) {

        /** r: the mean of the round trips measured before and after the pending run. */
        double roundTripMicros() {
            return DoubleStream.concat(before.stream(), after.stream()).average().orElseThrow();
        }

        double measuredRatio() {
            return ours.opsPerSecond() / book.opsPerSecond();
        }

        /** t_book(R) ÷ t_ours(R). */
        double ratioAt(double at) {
            return book.modelledMicros(roundTripMicros(), at) / ours.modelledMicros(roundTripMicros(), at);
        }

        /** Operations per second each side would reach at a round trip R: what the modelled target divides. */
        double oursOpsAt(double at) {
            return 1e6 / ours.modelledMicros(roundTripMicros(), at);
        }

        double bookOpsAt(double at) {
            return 1e6 / book.modelledMicros(roundTripMicros(), at);
        }
    }

    /** The round's model for a client; empty without both sides at K or without a round trip. */
    static Optional<Model> of(Round round, Backend backend) {
        OptionalDouble ours = score(round.jmh().pending(backend, K));
        OptionalDouble book = score(round.jmh().bookFetch(backend, K));
        OptionalDouble before = round.roundTripMicros(Round.ROUND_TRIP_BEFORE);
        OptionalDouble after = round.roundTripMicros(Round.ROUND_TRIP_AFTER);
        if (ours.isEmpty() || book.isEmpty() || ours.getAsDouble() <= 0 || book.getAsDouble() <= 0
                || (before.isEmpty() && after.isEmpty())) {
            return Optional.empty();
        }
        return Optional.of(new Model(round.number(), before, after, new Side(ours.getAsDouble(), OURS_ROUND_TRIPS),
                new Side(book.getAsDouble(), BOOK_ROUND_TRIPS)));
    }

    /** The page's section: every round's round trip, both sides' times, the measured and modelled ratios. */
    static void section(StringBuilder md, RunResults run) {
        md.append("### Pending + acknowledge against the book's fetch, by round trip\n\n")
                .append("At K = ").append(K).append(" ours costs ").append(OURS_ROUND_TRIPS)
                .append(" round trips (`RoundTripBudgetTest`), the book's fetch 2K + 5 = ").append(BOOK_ROUND_TRIPS)
                .append(" (on Jedis a MULTI..EXEC is two). A round trip on loopback costs tens of microseconds, "
                        + "across a network 0.1 to 1 ms, so the ratio measured here says little of the ratio "
                        + "across a network. Each round measures its loopback round trip with `redis-benchmark "
                        + "-c 1 -n 20000 PING` just before and just after its pending run (1 / requests per second); "
                        + "r is their mean. With t = 1 / throughput, each side's measured time per operation in "
                        + "the round, and n its round trips:\n\n")
                .append("- time outside the network: o = t − n × r (taken as 0 where it comes out below, marked *);\n")
                .append("- modelled at a round trip R: t(R) = o + n × R;\n")
                .append("- modelled ratio: t_book(R) ÷ t_ours(R).\n\n");
        md.append("| Round | Client | Round trip before / after | Ours: t, o | Book: t, o | Measured");
        MODELLED_MICROS.forEach(at -> md.append(" | At ").append(millisText(at)));
        md.append(" |\n|---:|---|---:|---:|---:|---:").append("|---:".repeat(MODELLED_MICROS.size())).append("|\n");
        boolean any = false;
        for (Round round : run.rounds()) {
            for (Backend backend : ON_REDIS) {
                Optional<Model> model = of(round, backend);
                if (model.isEmpty()) {
                    continue;
                }
                any = true;
                row(md, Formats.name(backend), model.get());
            }
        }
        if (!any) {
            md.append("| — | — | ").append((Formats.NOT_RUN + " | ").repeat(4 + MODELLED_MICROS.size()).trim()).append('\n');
        }
        md.append('\n');
    }

    private static void row(StringBuilder md, String client, Model m) {
        double r = m.roundTripMicros();
        md.append("| ").append(m.round()).append(" | ").append(client)
                .append(" | ").append(micros(m.before())).append(" / ").append(micros(m.after()))
                .append(" | ").append(side(m.ours(), r)).append(" | ").append(side(m.book(), r))
                .append(" | ").append(ratio(m.measuredRatio()));
        MODELLED_MICROS.forEach(at -> md.append(" | ").append(ratio(m.ratioAt(at))));
        md.append(" |\n");
    }

    private static String side(Side side, double roundTrip) {
        double outside = side.outsideMicros(roundTrip);
        return usText(side.micros()) + ", " + (outside < 0 ? "0*" : usText(outside));
    }

    private static String micros(OptionalDouble value) {
        return value.isPresent() ? usText(value.getAsDouble()) : "—";
    }

    /** A round trip given in microseconds, as the page names it: "0.5 ms", "1 ms". */
    static String millisText(double micros) {
        double ms = micros / 1000;
        return String.format(Locale.ROOT, ms == Math.rint(ms) ? "%.0f ms" : "%s ms", ms);
    }

    private static String ratio(double value) {
        return String.format(Locale.ROOT, "%.2f×", value);
    }
}
