package dev.pigeonhole.benchmarks.report;

import static dev.pigeonhole.benchmarks.Backend.IN_MEMORY;
import static dev.pigeonhole.benchmarks.Backend.LETTUCE;
import static dev.pigeonhole.benchmarks.report.RunResults.ON_REDIS;

import dev.pigeonhole.benchmarks.Backend;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;

/** The targets a run is held to, each as a {@link Ratio} of two of its results. */
final class Targets {

    private Targets() {
    }

    static List<Ratio> of(RunResults run) {
        List<Ratio> ratios = new ArrayList<>();
        OptionalDouble e1 = rps(run.evalsha1());
        OptionalDouble e8 = rps(run.evalsha8());
        for (Backend backend : ON_REDIS) {
            String name = Formats.name(backend);
            ratios.add(new Ratio(name + " send, 1 thread ÷ redis-benchmark EVALSHA, 1 client", "≥ 0.85×", 0.85,
                    score(run.send(backend, 1)), e1, false));
            ratios.add(new Ratio(name + " send, 1 thread ÷ book send, 1 thread", "≥ 4×", 4,
                    score(run.send(backend, 1)), score(run.bookSend(backend, 1)), false));
        }
        for (Backend backend : ON_REDIS) {
            String name = Formats.name(backend);
            ratios.add(new Ratio(name + " send, 8 threads ÷ redis-benchmark EVALSHA, 8 clients", "≥ 0.8×", 0.8,
                    score(run.send(backend, 8)), e8, false));
            ratios.add(new Ratio(name + " send, 8 threads ÷ book send, 8 threads", "≥ 15×", 15,
                    score(run.send(backend, 8)), score(run.bookSend(backend, 8)), false));
        }
        // The virtual-thread variant is how Lettuce is meant to be driven; shown when it was run.
        run.lettuceVirtual().ifPresent(v -> {
            ratios.add(new Ratio("Lettuce send, virtual threads (" + v.method() + ") ÷ redis-benchmark EVALSHA, 8 clients",
                    "≥ 0.8×", 0.8, OptionalDouble.of(v.score()), e8, false));
            ratios.add(new Ratio("Lettuce send, virtual threads (" + v.method() + ") ÷ book send, 8 threads",
                    "≥ 15×", 15, OptionalDouble.of(v.score()), score(run.bookSend(LETTUCE, 8)), false));
        });
        for (Backend backend : ON_REDIS) {
            ratios.add(new Ratio(Formats.name(backend) + " pending+ack, K=100 ÷ book fetch, K=100", "≥ 20×", 20,
                    score(run.pending(backend, 100)), score(run.bookFetch(backend, 100)), false));
        }
        ratios.add(new Ratio("In-memory send, 1 thread", "≥ 3,000,000 ops/s", 3_000_000,
                score(run.send(IN_MEMORY, 1)), OptionalDouble.of(1), true));
        return ratios;
    }

    private static OptionalDouble score(Optional<JmhResult> result) {
        return result.map(b -> OptionalDouble.of(b.score())).orElse(OptionalDouble.empty());
    }

    private static OptionalDouble rps(Optional<RedisBenchmarkResult> result) {
        return result.map(r -> OptionalDouble.of(r.rps())).orElse(OptionalDouble.empty());
    }
}
