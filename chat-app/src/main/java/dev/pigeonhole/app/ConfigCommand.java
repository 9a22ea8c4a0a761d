package dev.pigeonhole.app;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.regex.Pattern;

/**
 * {@code pigeonhole config}: what {@code serve} would run with, given the same arguments, and
 * where each value came from. It takes serve's own options (serve is its mixin), so the two are
 * parsed by one definition and cannot drift apart; then it prints instead of serving.
 */
@Command(name = "config", sortOptions = false,
        description = {"Print the configuration serve would run with, given the same options.",
                "One option a line, key = value (source), the source being flag, env VARIABLE, file FILE:LINE or "
                        + "default; secrets are masked."})
final class ConfigCommand implements Callable<Integer> {

    static final String MASK = "****";
    static final String NOT_SET = "(not set)";

    /** A URL's user info ({@code redis://user:password@host}), whose password is shown masked. */
    private static final Pattern USER_INFO = Pattern.compile("://([^/@\\s]*)@");

    @Spec
    CommandLine.Model.CommandSpec spec;

    @Mixin
    ServeCommand serve;

    @Override
    public Integer call() {
        CommandLine line = spec.commandLine();
        OptionSources sources = (OptionSources) spec.defaultValueProvider();
        PrintWriter out = line.getOut();
        for (OptionSpec option : OptionSources.settable(spec)) {
            String key = OptionSources.key(option);
            String value;
            String where;
            if (line.getParseResult().hasMatchedOption(option)) {
                List<String> given = option.originalStringValues();
                value = given.isEmpty() || given.getLast().isEmpty() ? String.valueOf(option.getValue()) : given.getLast();
                where = "flag";
            } else {
                Optional<OptionSources.Source> source = sources.source(option);
                value = source.map(OptionSources.Source::value).orElse(option.defaultValue());
                where = source.map(OptionSources.Source::where).orElse("default");
            }
            out.println(key + " = " + shown(key, value) + "  (" + where + ")");
        }
        return 0;
    }

    private static String shown(String key, String value) {
        if (OptionSources.isSecret(key)) {
            return value == null || value.isEmpty() ? NOT_SET : MASK;
        }
        // A user info without a colon is a password alone (redis://secret@host).
        return value == null ? "" : USER_INFO.matcher(value).replaceAll(info -> "://"
                + (info.group(1).contains(":") ? info.group(1).substring(0, info.group(1).indexOf(':') + 1) : "") + MASK + "@");
    }
}
