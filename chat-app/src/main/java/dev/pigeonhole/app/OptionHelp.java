package dev.pigeonhole.app;

import picocli.CommandLine;
import picocli.CommandLine.Help;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.UsageMessageSpec;

/**
 * The help's option list, each option's description followed by the environment variable that
 * also sets it and its default: "(env PIGEONHOLE_PORT; default: 8080)". Both come from where the
 * parser takes them ({@link OptionSources#envName} and the annotation's default), so the help
 * cannot name a variable that nothing reads.
 */
final class OptionHelp {

    private OptionHelp() {
    }

    /** Renders the option list of {@code line} and of every command under it this way. */
    static void install(CommandLine line) {
        line.getHelpSectionMap().put(UsageMessageSpec.SECTION_KEY_OPTION_LIST, OptionHelp::optionList);
        line.getSubcommands().values().forEach(OptionHelp::install);
    }

    /** "(env PIGEONHOLE_PORT; default: 8080)", or without the default for an option that has none. */
    static String sources(OptionSpec option) {
        String env = "env " + OptionSources.envName(OptionSources.key(option));
        String defaultValue = option.defaultValue();
        return defaultValue == null || defaultValue.isEmpty() ? "(" + env + ")" : "(" + env + "; default: " + defaultValue + ")";
    }

    private static String optionList(Help help) {
        Help.IOptionRenderer standard = help.createDefaultOptionRenderer();
        Help.IOptionRenderer withSources = (option, labels, scheme) -> {
            Help.Ansi.Text[][] rows = standard.render(option, labels, scheme);
            if (OptionSources.isSettable(option)) {
                Help.Ansi.Text[] last = rows[rows.length - 1];
                last[last.length - 1] = last[last.length - 1].concat(" " + sources(option));
            }
            return rows;
        };
        Help.Layout layout = new Help.Layout(help.colorScheme(), help.createDefaultLayout().textTable(), withSources,
                help.createDefaultParameterRenderer());
        return help.optionList(layout, help.createDefaultOptionSort(), help.parameterLabelRenderer());
    }
}
