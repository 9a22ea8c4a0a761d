package dev.pigeonhole.app;

import picocli.CommandLine;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * Where an option's value comes from when the command line does not give it: its environment
 * variable, else the configuration file, else (by answering nothing) the plain default its
 * annotation carries. Picocli asks this for every option it did not match, so flags win over all.
 *
 * <p>An option is known by its long name without the dashes, its key: the key names it in the
 * configuration file, and the key in upper snake case after {@code PIGEONHOLE_} is its environment
 * variable. That rule is the one list of environment variables there is; the help and
 * {@code pigeonhole config} read it from here.
 */
final class OptionSources implements CommandLine.IDefaultValueProvider {

    /** Variables older than the rule, kept so that what reads them still works. */
    private static final Map<String, String> ENV_EXCEPTIONS = Map.of("redis-url", "REDIS_URL");

    private final Function<String, String> env;
    private final Optional<ConfigFile> file;

    OptionSources(Function<String, String> env, Optional<ConfigFile> file) {
        this.env = env;
        this.file = file;
    }

    /**
     * A value as it was written, where it was ({@code env PIGEONHOLE_PORT}, {@code file /etc/pigeonhole.conf:3}),
     * and the same said in words for a message ({@code 'port' in /etc/pigeonhole.conf:3}).
     */
    record Source(String value, String where, String setting) {
    }

    /** {@code port} for {@code --port}. */
    static String key(OptionSpec option) {
        return option.longestName().substring(2);
    }

    static String envName(String key) {
        return ENV_EXCEPTIONS.getOrDefault(key, "PIGEONHOLE_" + key.replace('-', '_').toUpperCase(Locale.ROOT));
    }

    /** A value that must stay out of files that are shared, printed or checked in: a secret or a password itself. */
    static boolean isSecret(String key) {
        return key.endsWith("secret") || key.endsWith("password");
    }

    /** The options an operator configures: those with a long name, not asking for help or the version. */
    static List<OptionSpec> settable(CommandSpec command) {
        return command.options().stream().filter(OptionSources::isSettable).toList();
    }

    static boolean isSettable(OptionSpec option) {
        return !option.usageHelp() && !option.versionHelp() && option.longestName().startsWith("--");
    }

    @Override
    public String defaultValue(ArgSpec arg) {
        if (!(arg instanceof OptionSpec option) || !isSettable(option)) {
            return null;
        }
        // Picocli expands ${...} in what a provider answers; a value is taken as written, so every $ is escaped.
        return source(option).map(source -> source.value().replace("$", "$$")).orElse(null);
    }

    /**
     * A variable of the environment this command line was given: for the secrets read from it
     * directly, which are no option's value and so never pass through {@link #defaultValue}.
     */
    String environment(String variable) {
        return env.apply(variable);
    }

    /** The environment's or the file's value for {@code option}, if either has one: the environment first. */
    Optional<Source> source(OptionSpec option) {
        String key = key(option);
        String variable = envName(key);
        String fromEnv = env.apply(variable);
        if (fromEnv != null) {
            return Optional.of(new Source(fromEnv, "env " + variable, variable + " in the environment"));
        }
        if (key.equals(ConfigFileOption.KEY)) {
            return Optional.empty();
        }
        return file.flatMap(config -> config.entry(key))
                .map(entry -> new Source(entry.value(), "file " + entry.where(), "'" + key + "' in " + entry.where()));
    }
}
