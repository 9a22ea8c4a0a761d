package dev.pigeonhole.benchmarks.clients;

import dev.pigeonhole.adapter.redis.RedisClientKind;
import dev.pigeonhole.benchmarks.Backend;
import dev.pigeonhole.benchmarks.PendingBenchmark;
import dev.pigeonhole.benchmarks.SendBenchmark;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.profile.GCProfiler;
import org.openjdk.jmh.results.BenchmarkResult;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.results.format.ResultFormatType;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * Bytes allocated per operation, the one measure taken by JMH rather than in the comparison's
 * own JVM: {@code SendBenchmark.send} and {@code PendingBenchmark.pendingAndAcknowledge} at K,
 * one caller, one fork per client with {@code -prof gc}, whose {@code gc.alloc.rate.norm} counts
 * what every thread of the fork allocated (the clients' own I/O threads too) over the operations.
 * The pending figure holds the K sends of its per-invocation setup as well, which the report
 * takes away (K × the send's figure).
 */
final class AllocationRun {

    static final String NORM = "gc.alloc.rate.norm";

    private AllocationRun() {
    }

    /** Runs both benchmarks for every client; one row per measurement iteration, its number in the round column. */
    static List<Measurements.Row> run(List<RedisClientKind> clients, int chats, int iterations, TimeValue time,
                                      Path json) throws RunnerException {
        Options options = new OptionsBuilder()
                .include(Pattern.quote(SendBenchmark.class.getName()) + "\\.send$")
                .include(Pattern.quote(PendingBenchmark.class.getName()) + "\\.pendingAndAcknowledge$")
                .param("backend", clients.stream().map(client -> Backend.onSingleNode(client).name()).toArray(String[]::new))
                .param("chats", Integer.toString(chats))
                .mode(Mode.Throughput).timeUnit(TimeUnit.SECONDS)
                .forks(1).threads(1)
                .warmupIterations(1).warmupTime(time)
                .measurementIterations(iterations).measurementTime(time)
                .addProfiler(GCProfiler.class)
                .shouldFailOnError(false)
                .result(json.toString()).resultFormat(ResultFormatType.JSON)
                .build();
        Collection<RunResult> results = new Runner(options).run();
        List<Measurements.Row> rows = new ArrayList<>();
        for (RunResult result : results) {
            String benchmark = result.getParams().getBenchmark();
            Measurements.Measure measure = benchmark.endsWith(".send")
                    ? Measurements.Measure.SEND_BYTES_PER_OP : Measurements.Measure.PENDING_BYTES_PER_OP;
            RedisClientKind client = Backend.valueOf(result.getParams().getParam("backend")).client().orElseThrow();
            int iteration = 0;
            for (BenchmarkResult fork : result.getBenchmarkResults()) {
                for (IterationResult measured : fork.getIterationResults()) {
                    Result<?> norm = measured.getSecondaryResults().get(NORM);
                    iteration++;
                    if (norm != null && Double.isFinite(norm.getScore())) {
                        rows.add(new Measurements.Row(iteration, client, measure, norm.getScore()));
                    }
                }
            }
        }
        return rows;
    }
}
