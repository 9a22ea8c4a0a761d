package dev.pigeonhole.benchmarks.report;

import static dev.pigeonhole.benchmarks.report.Formats.NOT_RUN;
import static dev.pigeonhole.benchmarks.report.Formats.microsText;
import static dev.pigeonhole.benchmarks.report.Formats.num;
import static dev.pigeonhole.benchmarks.report.RunResults.STORES;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import tools.jackson.databind.JsonNode;

/**
 * The page's end-to-end sections, each store's server measured over HTTP and live sockets: the
 * load generator's runs, its fan-out scenario, and the HTTP send rate, round by round.
 */
final class EndToEndSections {

    private final StringBuilder md;
    private final RunResults run;
    private final Charts.Drawn charts;
    /** The page being written, which chart links are relative to. */
    private final Path page;

    EndToEndSections(StringBuilder md, RunResults run, Charts.Drawn charts, Path page) {
        this.md = md;
        this.run = run;
        this.charts = charts;
        this.page = page;
    }

    void load() {
        md.append("## End to end: the server under load\n\n");
        chartLink(charts.latency(), "End-to-end delivery latency by percentile, per backend, last round");
        md.append("One server per store, started once and kept through the rounds, so that later rounds meet a "
                + "warm JIT; the stores take turns in each round.\n\n");
        md.append("| Run | Users | Chats | Target rate | Sends/s | Deliveries/s | Delivered / expected | Errors "
                + "| p50 | p90 | p99 | p99.9 | max |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        List<LoadRun> loads = run.loads();
        if (loads.isEmpty()) {
            for (String store : STORES) {
                md.append("| ").append(store).append(" | ").append((NOT_RUN + " | ").repeat(12).trim()).append('\n');
            }
        }
        loads.forEach(this::loadRow);
        md.append('\n');
    }

    /** The load generator's fan-out scenario: 100 sockets in one chat, each store's server, round by round. */
    void fanOut() {
        md.append("## Fan-out: 100 sockets in one chat\n\n")
                .append("The load generator's fan-out scenario (`--scenario fanout --sockets 100 --rate 100`) "
                        + "against the same servers, after their load run in each round: 100 users each hold a "
                        + "socket in one chat while messages are sent to it at 100 a second. The figures are from when a "
                        + "message's send was due to its arrival on the **last** of the 100 sockets; the target is p99 "
                        + "≤ 10 ms on memory and Redis.\n\n");
        md.append("| Round | Store | Messages | Sends/s | p50 | p90 | p99 | p99.9 | max | Errors |\n")
                .append("|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        boolean any = false;
        for (Round round : run.rounds()) {
            for (String store : STORES) {
                Optional<LoadRun> fan = round.fanOut(store);
                if (fan.isEmpty()) {
                    continue;
                }
                any = true;
                JsonNode json = fan.get().json();
                JsonNode last = json.path("lastSocketLatencyMicros");
                md.append("| ").append(round.number()).append(" | ").append(store)
                        .append(" | ").append(num(last, "messages"))
                        .append(" | ").append(num(json, "sendsPerSecond"));
                for (String p : List.of("p50", "p90", "p99", "p999", "max")) {
                    md.append(" | ").append(microsText(last.path(p)));
                }
                md.append(" | ").append(num(json, "errors")).append(" |\n");
            }
        }
        if (!any) {
            md.append("| — | — | ").append((NOT_RUN + " | ").repeat(8).trim()).append('\n');
        }
        md.append('\n');
    }

    /** The HTTP send rate: callers that send as fast as the server answers, the capacity the load runs stay under. */
    void httpRate() {
        md.append("## HTTP send rate\n\n")
                .append("Closed-loop callers posting sends into one chat over HTTP, each sending again as soon as "
                        + "its answer arrives (`SendRate`): the most sends a second the server carries per store. The "
                        + "stores take turns within each round. Sends per second, with p50 / p99 of one send.\n\n");
        md.append("| Round");
        STORES.forEach(store -> md.append(" | ").append(store));
        md.append(" |\n|---:").append("|---:".repeat(STORES.size())).append("|\n");
        if (run.rounds().isEmpty()) {
            md.append("| — ").append((" | " + NOT_RUN).repeat(STORES.size())).append(" |\n");
        }
        for (Round round : run.rounds()) {
            md.append("| ").append(round.number());
            for (String store : STORES) {
                md.append(" | ").append(Optional.ofNullable(round.http().get(store)).map(h -> num(h.json(), "sendsPerSecond")
                        + " (" + microsText(h.json().path("latencyMicros").path("p50")) + " / "
                        + microsText(h.json().path("latencyMicros").path("p99")) + ")").orElse(NOT_RUN));
            }
            md.append(" |\n");
        }
        md.append('\n');
    }

    private void loadRow(LoadRun load) {
        JsonNode j = load.json();
        JsonNode lat = j.path("latencyMicros");
        md.append("| ").append(load.label()).append(" | ").append(j.path("users").asString("—"))
                .append(" | ").append(j.path("chats").asString("—"))
                .append(" | ").append(num(j, "rateTarget")).append("/s")
                .append(" | ").append(num(j, "sendsPerSecond"))
                .append(" | ").append(num(j, "deliveriesPerSecond"))
                .append(" | ").append(num(j, "delivered")).append(" / ").append(num(j, "expectedDeliveries"))
                .append(" | ").append(num(j, "errors"));
        for (String p : List.of("p50", "p90", "p99", "p999", "max")) {
            md.append(" | ").append(microsText(lat.path(p)));
        }
        md.append(" |\n");
    }

    private void chartLink(Optional<Path> chart, String alt) {
        ResultsPage.chartLink(md, page, chart, alt);
    }
}
