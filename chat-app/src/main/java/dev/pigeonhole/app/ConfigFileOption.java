package dev.pigeonhole.app;

import picocli.CommandLine.Option;

import java.nio.file.Path;

/**
 * {@code --config FILE}, on every command that reads the options of {@code serve}. The file's
 * values are defaults, which picocli must have before it parses, so {@link Main} finds and reads
 * the file first ({@link ConfigFile#named}); this declaration lets the parser accept the option
 * and the help list it.
 */
final class ConfigFileOption {

    static final String KEY = "config";

    @Option(names = "--" + KEY, paramLabel = "FILE",
            description = "a properties file of key = value lines, each key an option's long name without the "
                    + "dashes (port = 8081); flags and environment variables win over it")
    Path file;
}
