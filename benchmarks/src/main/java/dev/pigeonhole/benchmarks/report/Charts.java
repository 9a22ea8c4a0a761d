package dev.pigeonhole.benchmarks.report;

import static dev.pigeonhole.benchmarks.Backend.JEDIS;
import static dev.pigeonhole.benchmarks.Backend.LETTUCE;
import static dev.pigeonhole.benchmarks.report.RunResults.DURABLE;
import static dev.pigeonhole.benchmarks.report.RunResults.ON_REDIS;
import static dev.pigeonhole.benchmarks.report.RunResults.TABLED;

import dev.pigeonhole.benchmarks.Backend;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.IntFunction;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import tools.jackson.databind.JsonNode;

/**
 * The report's three pictures, drawn off-screen with XChart into PNG files: send throughput,
 * pending against the book's fetch, and end-to-end delivery latency. A chart without data is not
 * drawn (and an old one of that name is removed); one that fails becomes a warning.
 */
final class Charts {

    /** Where each chart went, if it was drawn, and what went wrong. */
    record Drawn(Optional<Path> send, Optional<Path> pending, Optional<Path> latency, List<String> warnings) {
    }

    /** A chart as PNG bytes, or nothing when the run has no data for it. */
    private interface Png {
        Optional<byte[]> draw() throws IOException;
    }

    private final RunResults run;
    /** The figures the tables show, which the charts draw. */
    private final JmhResults jmh;
    private final Path folder;
    private final List<String> warnings = new ArrayList<>();

    private Charts(RunResults run, Path folder) {
        this.run = run;
        this.jmh = run.tables();
        this.folder = folder;
    }

    static Drawn draw(RunResults run, Path folder) {
        Charts charts = new Charts(run, folder);
        Optional<Path> send = charts.save("send-throughput", charts::sendThroughput);
        Optional<Path> pending = charts.save("pending-vs-book", charts::pendingAgainstBook);
        Optional<Path> latency = charts.save("delivery-latency", charts::deliveryLatency);
        return new Drawn(send, pending, latency, List.copyOf(charts.warnings));
    }

    private Optional<Path> save(String name, Png png) {
        Path file = folder.resolve(name + ".png");
        try {
            Optional<byte[]> picture = png.draw();
            if (picture.isEmpty()) {
                // A stale picture from an earlier run would contradict the "not run" beside it.
                Files.deleteIfExists(file);
                return Optional.empty();
            }
            Files.write(file, picture.get());
            return Optional.of(file);
        } catch (IOException | RuntimeException e) {
            warnings.add("chart " + name + " could not be drawn: " + e);
            return Optional.empty();
        }
    }

    private Optional<byte[]> sendThroughput() throws IOException {
        List<String> x = List.of("1 thread / client", "8 threads / clients");
        Map<String, List<Double>> series = new LinkedHashMap<>();
        for (Backend backend : DURABLE) {
            series.put(Formats.name(backend), List.of(orZero(jmh.send(backend, 1)), orZero(jmh.send(backend, 8))));
        }
        series.put("Lettuce, virtual threads", List.of(0.0, orZero(jmh.lettuceVirtual())));
        series.put("Book send", List.of(orZero(jmh.bookSend(1)), orZero(jmh.bookSend(8))));
        series.put("Raw FCALL (JMH)", List.of(orZero(jmh.rawScript(1)), orZero(jmh.rawScript(8))));
        series.put("redis-benchmark FCALL", List.of(
                run.redisBenchmark(Round.ONE_CLIENT).map(RedisBenchmarkResult::rps).orElse(0.0),
                run.redisBenchmark(Round.EIGHT_CLIENTS).map(RedisBenchmarkResult::rps).orElse(0.0)));
        series.values().removeIf(values -> values.stream().allMatch(v -> v == 0));
        if (series.isEmpty()) {
            return Optional.empty();
        }
        CategoryChart chart = new CategoryChartBuilder().width(900).height(500)
                .title("Send throughput (in-memory is in the table: it would flatten every bar)")
                .xAxisTitle("").yAxisTitle("sends per second").build();
        chart.getStyler().setLegendPosition(Styler.LegendPosition.InsideNW);
        chart.getStyler().setYAxisDecimalPattern("#,###");
        series.forEach((name, values) -> chart.addSeries(name, x, values));
        return Optional.of(BitmapEncoder.getBitmapBytes(chart, BitmapEncoder.BitmapFormat.PNG));
    }

    private static double orZero(Optional<JmhResult> result) {
        return result.map(JmhResult::score).filter(s -> !Double.isNaN(s)).orElse(0.0);
    }

    private Optional<byte[]> pendingAgainstBook() throws IOException {
        XYChart chart = new XYChartBuilder().width(900).height(500).title("Pending + acknowledge against the book's fetch")
                .xAxisTitle("K (messages pending)").yAxisTitle("operations per second (log)").build();
        chart.getStyler().setYAxisLogarithmic(true);
        chart.getStyler().setXAxisLogarithmic(true);
        chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideE);
        boolean any = false;
        for (Backend backend : TABLED) {
            any |= addLine(chart, "Pigeonhole, " + Formats.name(backend), k -> jmh.pending(backend, k));
        }
        for (Backend backend : ON_REDIS) {
            // When the baseline is not run per client both lines would be the same one: draw it once.
            if (backend == LETTUCE && jmh.bookFetch(LETTUCE, 100).equals(jmh.bookFetch(JEDIS, 100))) {
                continue;
            }
            String name = jmh.bookFetch(backend, 100).map(b -> b.names(backend)).orElse(false)
                    ? "Book fetch, " + Formats.name(backend) : "Book fetch";
            any |= addLine(chart, name, k -> jmh.bookFetch(backend, k));
        }
        return any ? Optional.of(BitmapEncoder.getBitmapBytes(chart, BitmapEncoder.BitmapFormat.PNG)) : Optional.empty();
    }

    private static boolean addLine(XYChart chart, String name, IntFunction<Optional<JmhResult>> at) {
        List<Double> xs = new ArrayList<>();
        List<Double> ys = new ArrayList<>();
        for (int k : List.of(1, 10, 100)) {
            at.apply(k).filter(b -> b.score() > 0).ifPresent(b -> {
                xs.add((double) k);
                ys.add(b.score());
            });
        }
        if (xs.isEmpty()) {
            return false;
        }
        XYSeries series = chart.addSeries(name, xs, ys);
        series.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Line);
        return true;
    }

    private Optional<byte[]> deliveryLatency() throws IOException {
        XYChart chart = new XYChartBuilder().width(900).height(500).title("End-to-end delivery latency by percentile (last round)")
                .xAxisTitle("percentile, as 1/(1-p): 10 = p90, 100 = p99, 1000 = p99.9")
                .yAxisTitle("microseconds (log)").build();
        chart.getStyler().setXAxisLogarithmic(true);
        chart.getStyler().setYAxisLogarithmic(true);
        chart.getStyler().setLegendPosition(Styler.LegendPosition.InsideNW);
        chart.getStyler().setMarkerSize(0);
        boolean any = false;
        Set<String> used = new HashSet<>();
        for (LoadRun load : run.lastLoads()) {
            List<Double> xs = new ArrayList<>();
            List<Double> ys = new ArrayList<>();
            for (JsonNode p : load.json().path("percentiles").values()) {
                double percentile = p.path("percentile").asDouble(Double.NaN);
                double micros = p.path("micros").asDouble(Double.NaN);
                // p100 maps to infinity on this axis, and log axes cannot show zero.
                if (Double.isNaN(percentile) || percentile >= 100 || !(micros > 0)) {
                    continue;
                }
                xs.add(1 / (1 - percentile / 100));
                ys.add(micros);
            }
            if (xs.size() >= 2) {
                String name = load.label();
                // Two runs may share a label; XChart refuses a repeated series name.
                for (int n = 2; !used.add(name); n++) {
                    name = load.label() + " (" + n + ")";
                }
                chart.addSeries(name, xs, ys);
                any = true;
            }
        }
        return any ? Optional.of(BitmapEncoder.getBitmapBytes(chart, BitmapEncoder.BitmapFormat.PNG)) : Optional.empty();
    }
}
