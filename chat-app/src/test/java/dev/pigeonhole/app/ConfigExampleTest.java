package dev.pigeonhole.app;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The release's example configuration cannot drift from the options: every setting in it, the
 * ones switched off by a leading {@code #} too, names a long option of {@code serve}, and its value
 * is one that option accepts.
 */
class ConfigExampleTest {

    private static final Path EXAMPLE = Path.of("src/dist/pigeonhole.conf.example");
    /** {@code key = value}, or {@code #key = value} for one switched off; prose comments are {@code # ...}. */
    private static final Pattern SETTING = Pattern.compile("^#?([a-z][a-z0-9-]*)\\s*=\\s*(.*)$");

    record Setting(String key, String value) {
    }

    @Test
    void every_key_of_the_example_is_a_long_option_of_serve() throws IOException {
        List<Setting> settings = settings();
        CommandLine.Model.CommandSpec serve = serveSpec();

        assertThat(settings).as("settings in " + EXAMPLE).hasSizeGreaterThan(20);
        assertThat(settings).filteredOn(setting -> serve.findOption("--" + setting.key()) == null)
                .as("keys that are no option of serve").isEmpty();
        assertThat(settings).extracting(Setting::key)
                .contains("host", "port", "store", "redis-url", "redis-cluster", "redis-client", "postgres-url",
                        "postgres-user", "postgres-schema", "postgres-password-file", "max-message-length");
        assertThat(settings).extracting(Setting::key).doesNotHaveDuplicates();
    }

    @Test
    void every_value_of_the_example_is_one_its_option_accepts() throws IOException {
        List<String> args = new ArrayList<>(List.of("serve"));
        settings().forEach(setting -> args.addAll(List.of("--" + setting.key(), setting.value())));

        // Parsing converts every value as a start would, without starting anything.
        CommandLine.ParseResult parsed = new CommandLine(new Main()).setCaseInsensitiveEnumValuesAllowed(true)
                .parseArgs(args.toArray(String[]::new));

        assertThat(parsed.subcommand().matchedOptions()).hasSize(settings().size());
    }

    @Test
    void the_example_holds_no_secret() throws IOException {
        assertThat(settings()).extracting(Setting::key).doesNotContain("jwt-secret");
    }

    private static List<Setting> settings() throws IOException {
        List<Setting> settings = new ArrayList<>();
        for (String line : Files.readAllLines(EXAMPLE)) {
            Matcher setting = SETTING.matcher(line.strip());
            if (setting.matches()) {
                settings.add(new Setting(setting.group(1), setting.group(2).strip()));
            }
        }
        return settings;
    }

    private static CommandLine.Model.CommandSpec serveSpec() {
        return new CommandLine(new Main()).getSubcommands().get("serve").getCommandSpec();
    }
}
