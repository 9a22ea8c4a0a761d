package dev.pigeonhole.app;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;
import picocli.CommandLine;

/**
 * The release this build is, as the POM says: Maven filters it into {@code pigeonhole.properties}
 * when it builds the app, so {@code --version}, {@code /health} and the first log line cannot
 * drift from the version the tarball is named after.
 */
final class Version implements CommandLine.IVersionProvider {

    static final String RESOURCE = "pigeonhole.properties";

    private static final String CURRENT = read();

    /** The POM's version, e.g. {@code 0.1.0}. */
    static String current() {
        return CURRENT;
    }

    /** For picocli's {@code --version}. */
    @Override
    public String[] getVersion() {
        return new String[] {"pigeonhole " + CURRENT};
    }

    private static String read() {
        Properties properties = new Properties();
        try (InputStream in = Version.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException(RESOURCE + " is missing from the app's resources; build with Maven");
            }
            properties.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + RESOURCE, e);
        }
        String version = properties.getProperty("version", "");
        // An unfiltered copy (a build that skipped Maven's resources) still holds the placeholder.
        if (version.isBlank() || version.contains("${")) {
            throw new IllegalStateException(RESOURCE + " holds no version (" + version + "); build with Maven");
        }
        return version.strip();
    }
}
