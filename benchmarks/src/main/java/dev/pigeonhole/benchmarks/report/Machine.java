package dev.pigeonhole.benchmarks.report;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.util.Optional;

/** The machine and the run a report's numbers come from: what a reader needs to weigh them. */
final class Machine {

    private Machine() {
    }

    static void section(StringBuilder md, ResultsReport.Options options) {
        md.append("## Machine and run\n\n| | |\n|---|---|\n");
        row(md, "Date", ZonedDateTime.now().format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm z")));
        row(md, "Mode", options.mode());
        row(md, "Duration", options.durationSeconds().isPresent()
                ? Formats.durationText(options.durationSeconds().getAsDouble()) : "not given");
        row(md, "CPU", cpuModel().orElse("unknown") + " — " + Runtime.getRuntime().availableProcessors()
                + " cores available to the JVM");
        memory().ifPresent(m -> row(md, "Memory", m));
        row(md, "OS", System.getProperty("os.name") + " " + System.getProperty("os.version") + " ("
                + System.getProperty("os.arch") + ")");
        row(md, "JDK", System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version")
                + " (" + System.getProperty("java.vm.vendor") + ")");
        row(md, "Redis", redisVersion(options).orElse("unknown"));
        options.redisCluster().ifPresent(cluster -> row(md, "Redis Cluster", cluster));
        options.postgresVersion().ifPresent(version -> row(md, "PostgreSQL", version));
        md.append('\n');
    }

    private static void row(StringBuilder md, String name, String value) {
        md.append("| ").append(name).append(" | ").append(value).append(" |\n");
    }

    private static Optional<String> cpuModel() {
        try {
            return Files.readAllLines(Path.of("/proc/cpuinfo")).stream().filter(l -> l.startsWith("model name"))
                    .map(l -> l.substring(l.indexOf(':') + 1).trim()).findFirst();
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    private static Optional<String> memory() {
        try {
            return Files.readAllLines(Path.of("/proc/meminfo")).stream().filter(l -> l.startsWith("MemTotal:"))
                    .map(l -> l.replaceAll("\\D+", "")).filter(s -> !s.isEmpty())
                    .map(kb -> String.format(Locale.ROOT, "%.1f GiB", Long.parseLong(kb) / 1048576.0)).findFirst();
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    private static Optional<String> redisVersion(ResultsReport.Options options) {
        if (options.redisVersion().isPresent()) {
            return options.redisVersion();
        }
        return options.redisUrl().flatMap(Machine::askRedisVersion);
    }

    /** INFO over a plain socket: the report should not need a Redis client just to print a version. */
    static Optional<String> askRedisVersion(String url) {
        try {
            URI uri = URI.create(url);
            String host = uri.getHost() == null ? "127.0.0.1" : uri.getHost();
            int port = uri.getPort() < 0 ? 6379 : uri.getPort();
            try (Socket socket = new Socket()) {
                socket.connect(new InetSocketAddress(host, port), 2000);
                socket.setSoTimeout(2000);
                OutputStream out = socket.getOutputStream();
                out.write("INFO server\r\n".getBytes(StandardCharsets.US_ASCII));
                out.flush();
                BufferedReader in = new BufferedReader(new InputStreamReader(socket.getInputStream(),
                        StandardCharsets.US_ASCII));
                for (String line = in.readLine(); line != null; line = in.readLine()) {
                    if (line.startsWith("redis_version:")) {
                        return Optional.of(line.substring("redis_version:".length()).trim());
                    }
                }
            }
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
        return Optional.empty();
    }
}
