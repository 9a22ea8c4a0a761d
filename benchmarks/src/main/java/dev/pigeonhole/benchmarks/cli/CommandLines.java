package dev.pigeonhole.benchmarks.cli;

import java.time.Duration;
import java.util.function.Supplier;
import picocli.CommandLine;

/**
 * How the tools that run.sh calls read their command line: picocli fills a class of flags, every
 * {@link Duration} through {@link DurationConverter}, then the tool checks what the flags cannot
 * say alone (one option excluding another, a lower bound). {@code --help} prints the usage and
 * ends the program with 0; a bad command line prints what is wrong and the usage and ends it
 * with 2, which run.sh reports as that phase failing.
 */
public final class CommandLines {

    private CommandLines() {
    }

    /** The flags read into {@code flags}, then checked by {@code checked}, which may throw IllegalArgumentException. */
    public static <O> O parseOrExit(Object flags, String[] args, Supplier<O> checked) {
        CommandLine line = commandLine(flags);
        try {
            line.parseArgs(args);
            if (line.isUsageHelpRequested()) {
                line.usage(System.out);
                System.exit(0);
            }
            return checked.get();
        } catch (CommandLine.ParameterException | IllegalArgumentException e) {
            System.err.println(line.getCommandName() + ": " + e.getMessage());
            line.usage(System.err);
            System.exit(2);
            throw new IllegalStateException("unreachable", e);
        }
    }

    /** The parser for {@code flags}, for tests and for tools that parse without exiting. */
    public static CommandLine commandLine(Object flags) {
        return new CommandLine(flags).registerConverter(Duration.class, new DurationConverter());
    }

    /** Parses without exiting: a bad command line or a failed check is an IllegalArgumentException. */
    public static <O> O parse(Object flags, String[] args, Supplier<O> checked) {
        try {
            commandLine(flags).parseArgs(args);
        } catch (CommandLine.ParameterException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
        return checked.get();
    }
}
