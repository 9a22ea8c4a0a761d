package dev.pigeonhole.benchmarks.report;

import static dev.pigeonhole.benchmarks.report.Formats.NOT_RUN;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The text of RESULTS.md: the machine, the targets, a table per question, then every result. The
 * page's order is here; each group of sections is written by its own class ({@link JmhTables},
 * {@link EndToEndSections}, {@link ConnectionsSection}, and the floors', clients' and durability's).
 */
final class ResultsPage {

    private final ResultsReport.Options options;
    private final RunResults run;
    private final Charts.Drawn charts;
    private final StringBuilder md = new StringBuilder();

    private ResultsPage(ResultsReport.Options options, RunResults run, Charts.Drawn charts) {
        this.options = options;
        this.run = run;
        this.charts = charts;
    }

    static String markdown(ResultsReport.Options options, RunResults run, Charts.Drawn charts) {
        return new ResultsPage(options, run, charts).write();
    }

    private String write() {
        md.append("# Pigeonhole benchmark results\n\n");
        md.append("Written by `benchmarks/run.sh")
                .append(options.mode().equals("full") ? "" : " --" + options.mode())
                .append("` through `dev.pigeonhole.benchmarks.report.ResultsReport`; rerun it to refresh this page.\n\n");
        Machine.section(md, options);
        if (options.mode().equals("quick")) {
            md.append("> **Quick mode:** fewer and much shorter rounds, JMH iterations and load runs than the full "
                    + "run. The numbers show that every piece works and roughly where it stands; they are not the "
                    + "measurement, and a verdict drawn from fewer than 3 rounds is not one either. Run "
                    + "`benchmarks/run.sh` without `--quick` for that.\n\n");
        }
        if (options.mode().equals("clients")) {
            // The comparison alone: every other section would say "not run".
            notes();
            return md.append(ClientsSection.markdown(options.results())).toString();
        }
        if (options.mode().equals("durability")) {
            notes();
            return md.append(DurabilitySection.markdownOrNotRun(options.results())).toString();
        }
        coldWarning();
        notes();
        targets();
        JmhTables tables = new JmhTables(md, run, charts, options.out());
        tables.send();
        tables.pending();
        tables.mailboxAndPresence();
        md.append(FloorsSection.markdown(options.results()));
        ClientsSection.markdownIfRun(options.results()).ifPresent(md::append);
        DurabilitySection.markdownIfRun(options.results()).ifPresent(md::append);
        EndToEndSections endToEnd = new EndToEndSections(md, run, charts, options.out());
        endToEnd.load();
        endToEnd.fanOut();
        endToEnd.httpRate();
        ConnectionsSection.append(md, run);
        tables.allThroughput();
        tables.allLatency();
        List<String> warnings = new ArrayList<>(run.warnings());
        warnings.addAll(charts.warnings());
        if (!warnings.isEmpty()) {
            md.append("## Inputs missing or unreadable\n\n");
            warnings.forEach(w -> md.append("- ").append(w.replaceAll("\\s*\\R\\s*", " ")).append('\n'));
            md.append('\n');
        }
        md.append("## How to read this\n\n")
                .append("- The targets come from the rounds of the ratio phase; the tables from the catalog, one JMH "
                        + "run of every benchmark (a result only the rounds measured shows their median, without ±).\n")
                .append("- Throughput is JMH's mean over measurement iterations, ± its 99.9% confidence half-width.\n")
                .append("- B/op is `gc.alloc.rate.norm` from `-prof gc`: bytes allocated per operation, by "
                        + "the benchmark thread.\n")
                .append("- redis-benchmark calls the adapter's own send function (`chat_send` of its Functions "
                        + "library, loaded as the adapter loads it) through FCALL on the same Redis: it is the most "
                        + "this machine's Redis can do for one send, with no Java at all.\n")
                .append("- End-to-end latency is from the time a message's send was due (the load generator paces "
                        + "sends by the clock) to its delivery to a recipient's socket, on the same machine.\n");
        return md.toString();
    }

    private void targets() {
        List<Ratio> ratios = Targets.of(run);
        int rounds = run.rounds().stream().mapToInt(Round::number).max().orElse(0);
        md.append("## Targets\n\n")
                .append("Each target's two sides are measured back to back in every round of the ratio phase (")
                .append(rounds).append(rounds == 1 ? " round" : " rounds").append(" in this run")
                .append(rounds < 3 ? ", fewer than the 3 a verdict needs: read these as a first look" : "")
                .append("). A target is **met** only when every round clears it, **missed** when none does, and "
                        + "**undecided** when the rounds fall on both sides of it.\n\n");
        md.append("| Ratio | Target");
        for (int n = 1; n <= rounds; n++) {
            md.append(" | Round ").append(n);
        }
        md.append(" | Spread (min – max) | Verdict |\n|---|---").append("|---:".repeat(rounds)).append("|---|---|\n");
        for (Ratio r : ratios) {
            md.append("| ").append(r.name()).append(" | ").append(r.targetText());
            for (int n = 1; n <= rounds; n++) {
                int number = n;
                md.append(" | ").append(r.rounds().stream().filter(side -> side.round() == number).findFirst()
                        .map(r::roundText).orElse("—"));
            }
            md.append(" | ").append(r.spreadText()).append(" | ").append(r.verdictText()).append(" |\n");
        }
        md.append("\nThe many-live-connections targets, one run per N, and the floors' are in their own sections below.\n\n");
        RoundTripModel.section(md, run);
        // Why a target is missed takes a person reading a profile; it lives in a file of its own
        // next to this page, so that rerunning the numbers does not throw the reasons away.
        Path analysis = options.out().toAbsolutePath().resolveSibling("ANALYSIS.md");
        if (Files.isRegularFile(analysis)) {
            try {
                md.append(Files.readString(analysis).strip()).append("\n\n");
            } catch (IOException e) {
                md.append("(ANALYSIS.md could not be read: ").append(e.getMessage()).append(")\n\n");
            }
        }
    }

    /**
     * A load run whose median delivery takes 100 ms or more measured a cold or overloaded server,
     * not the system: the page says so above the numbers rather than leave them to be quoted.
     */
    private void coldWarning() {
        List<String> slow = run.loads().stream().filter(l -> l.json().path("latencyMicros").path("p50").isNumber()
                        && l.json().path("latencyMicros").path("p50").asDouble() >= 100_000)
                .map(LoadRun::label).toList();
        if (!slow.isEmpty()) {
            md.append("> **Cold end-to-end figures:** the median delivery of ").append(String.join(", ", slow))
                    .append(" took 100 ms or more: those runs measured a server still warming up (or a machine "
                            + "busy with other work), not its steady state.\n\n");
        }
    }

    /** What run.sh noted about this run: its rounds, options and the machine's load along the way. */
    private void notes() {
        if (options.notes().isEmpty()) {
            return;
        }
        try {
            md.append("### How this run was made\n\n").append(Files.readString(options.notes().get()).strip())
                    .append("\n\n");
        } catch (IOException e) {
            md.append("(the run's notes could not be read: ").append(e.getMessage()).append(")\n\n");
        }
    }

    /** A chart as an image link relative to {@code page}, or a line saying it was not drawn. */
    static void chartLink(StringBuilder md, Path page, Optional<Path> chart, String alt) {
        if (chart.isEmpty()) {
            md.append("_Chart: ").append(NOT_RUN).append(" (no data)._\n\n");
            return;
        }
        Path base = page.toAbsolutePath().getParent();
        String relative = base.relativize(chart.get().toAbsolutePath()).toString().replace('\\', '/');
        md.append("![").append(alt).append("](").append(relative).append(")\n\n");
    }
}
