package dev.pigeonhole.app;

import java.io.IOException;
import java.io.Reader;
import java.io.StringReader;
import java.nio.file.Path;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.function.Function;

/**
 * The configuration file: a Java properties file of {@code key = value} lines, each key an
 * option's long name without the dashes. Its values are read as {@link Properties} reads them;
 * the lines they stand on are found separately, for messages that point at them.
 *
 * <p>Every problem with it is an {@link IllegalArgumentException} of one line that names the
 * file: a file that cannot be read, a key no option has, or a secret written into it.
 */
final class ConfigFile {

    /** Within this many edits of a known key, an unknown key is taken for a misspelling of it. */
    private static final int MIN_EDITS_SUGGESTED = 2;

    private final Map<String, Entry> entries;

    private ConfigFile(Map<String, Entry> entries) {
        this.entries = entries;
    }

    /** One key's value, and where it stands: {@code /etc/pigeonhole.conf:3}, or the file alone when its line was not found. */
    record Entry(String key, String value, String where, int line) {
    }

    /**
     * The file the arguments name with {@code --config FILE} or {@code --config=FILE}, else the
     * one {@code PIGEONHOLE_CONFIG} names. Read before parsing, since its values are the parser's defaults.
     */
    static Optional<Path> named(String[] args, Function<String, String> env) {
        String flag = "--" + ConfigFileOption.KEY;
        String named = null;
        for (int i = 0; i < args.length && !args[i].equals("--"); i++) {
            if (args[i].equals(flag) && i + 1 < args.length) {
                named = args[++i];
            } else if (args[i].startsWith(flag + "=")) {
                named = args[i].substring(flag.length() + 1);
            }
        }
        return Optional.ofNullable(named != null ? named : env.apply(OptionSources.envName(ConfigFileOption.KEY)))
                .map(Path::of);
    }

    static ConfigFile read(Path path) {
        String text = TextFile.read(path, "configuration file");
        Properties properties = new Properties();
        try (Reader reader = new StringReader(text)) {
            properties.load(reader);
        } catch (IOException | IllegalArgumentException e) {
            throw new IllegalArgumentException("cannot read the configuration file " + path + ": " + e.getMessage());
        }
        Map<String, Integer> lines = keyLines(text);
        Map<String, Entry> entries = new HashMap<>();
        for (String key : properties.stringPropertyNames()) {
            Integer line = lines.get(key);
            String where = line == null ? path.toString() : path + ":" + line;
            entries.put(key, new Entry(key, properties.getProperty(key).strip(), where, line == null ? 0 : line));
        }
        return new ConfigFile(Map.copyOf(entries));
    }

    Optional<Entry> entry(String key) {
        return Optional.ofNullable(entries.get(key));
    }

    /**
     * Refuses, at the first offending line, a key that is not in {@code known}, the file naming
     * another file, and a secret itself, which belongs in a file of its own (its key with {@code -file}).
     */
    void check(Collection<String> known) {
        List<Entry> inOrder = entries.values().stream().sorted(Comparator.comparingInt(Entry::line)).toList();
        for (Entry entry : inOrder) {
            String key = entry.key();
            if (key.equals(ConfigFileOption.KEY)) {
                throw new IllegalArgumentException("'" + key + "' in " + entry.where()
                        + " names another configuration file; a configuration file cannot");
            }
            if (OptionSources.isSecret(key)) {
                String instead = known.contains(key + "-file") ? "name a file holding it with '" + key + "-file'"
                        : "give it in the environment, " + OptionSources.envName(key);
                throw new IllegalArgumentException("'" + key + "' in " + entry.where() + " is a secret, and a "
                        + "configuration file is no place for one: " + instead);
            }
            if (!known.contains(key)) {
                throw new IllegalArgumentException("unknown key '" + key + "' in " + entry.where()
                        + nearest(key, known).map(near -> "; did you mean '" + near + "'?")
                                .orElse("; the keys are serve's options without the dashes (pigeonhole serve --help)"));
            }
        }
    }

    /** The line each key was last set on, as Properties lets the last one win; continuation lines are skipped. */
    private static Map<String, Integer> keyLines(String text) {
        Map<String, Integer> lines = new HashMap<>();
        List<String> all = text.lines().toList();
        boolean continued = false;
        for (int i = 0; i < all.size(); i++) {
            String line = all.get(i).stripLeading();
            boolean comment = !continued && (line.startsWith("#") || line.startsWith("!"));
            if (!continued && !comment && !line.isEmpty()) {
                int end = 0;
                while (end < line.length() && "=: \t\f".indexOf(line.charAt(end)) < 0) {
                    end++;
                }
                lines.put(line.substring(0, end), i + 1);
            }
            continued = !comment && endsContinued(line);
        }
        return lines;
    }

    /** An odd number of backslashes at the end carries the value on to the next line. */
    private static boolean endsContinued(String line) {
        int backslashes = 0;
        for (int i = line.length() - 1; i >= 0 && line.charAt(i) == '\\'; i--) {
            backslashes++;
        }
        return backslashes % 2 == 1;
    }

    private static Optional<String> nearest(String key, Collection<String> known) {
        String wanted = key.toLowerCase(Locale.ROOT);
        return known.stream()
                .min(Comparator.comparingInt((String candidate) -> edits(wanted, candidate)))
                .filter(candidate -> edits(wanted, candidate) <= Math.max(MIN_EDITS_SUGGESTED, wanted.length() / 3));
    }

    /** Levenshtein distance: the fewest single-character insertions, deletions and substitutions between a and b. */
    static int edits(String a, String b) {
        int[] previous = new int[b.length() + 1];
        int[] current = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            previous[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            current[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int substitution = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
                current[j] = Math.min(substitution, Math.min(previous[j], current[j - 1]) + 1);
            }
            int[] swap = previous;
            previous = current;
            current = swap;
        }
        return previous[b.length()];
    }
}
