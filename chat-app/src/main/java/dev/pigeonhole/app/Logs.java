package dev.pigeonhole.app;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.joran.JoranConfigurator;
import ch.qos.logback.core.joran.spi.JoranException;
import ch.qos.logback.core.joran.util.ConfigurationWatchListUtil;
import java.net.URL;
import java.util.Arrays;
import java.util.Locale;
import org.slf4j.ILoggerFactory;
import org.slf4j.LoggerFactory;
import org.slf4j.bridge.SLF4JBridgeHandler;

/**
 * How the server's log lines look and whether it writes the access log: the one place that decides.
 * logback.xml declares both shapes and picks one by the system properties set here, so the first
 * line logged already has the chosen shape; when something logged before the choice was known (a
 * value from a file read later, say), Logback is configured again from the same file.
 */
final class Logs {

    /** Read by logback.xml: the name of the appender the root logger writes to. */
    static final String FORMAT_PROPERTY = "pigeonhole.log.format";
    /** Read by logback.xml: the level of the access logger, INFO (on) or OFF. */
    static final String ACCESS_LEVEL_PROPERTY = "pigeonhole.access.level";
    static final String ACCESS_LOGGER = "pigeonhole.access";

    /** What a line looks like: text to read, or one JSON object per line to ship. */
    enum Format {
        TEXT, JSON;

        String appender() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    private Logs() {
    }

    /** Before the first line logged, or at any time after: either way later lines follow the choice. */
    static void use(Format format, boolean accessLog) {
        System.setProperty(FORMAT_PROPERTY, format.appender());
        Level access = accessLog ? Level.INFO : Level.OFF;
        System.setProperty(ACCESS_LEVEL_PROPERTY, access.levelStr);
        // The first call starts Logback, which reads the properties just set.
        ILoggerFactory factory = LoggerFactory.getILoggerFactory();
        if (!(factory instanceof LoggerContext context)) {
            return; // another SLF4J binding: its own configuration rules
        }
        // What a library writes through java.util.logging (the OTLP exporter, when its collector does
        // not answer) comes out as one of these lines too, not as the JDK's own two-line records.
        if (!SLF4JBridgeHandler.isInstalled()) {
            SLF4JBridgeHandler.removeHandlersForRootLogger();
            SLF4JBridgeHandler.install();
        }
        ch.qos.logback.classic.Logger root = context.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        boolean ours = Arrays.stream(Format.values()).anyMatch(each -> root.getAppender(each.appender()) != null);
        boolean asChosen = root.getAppender(format.appender()) != null
                && context.getLogger(ACCESS_LOGGER).getLevel() == access;
        if (ours && !asChosen) {
            reconfigure(context);
        } else if (!ours && !accessLog) {
            // A configuration file of someone else's (logback.configurationFile, a test's) decides for
            // itself, but an access log turned off is off under any.
            context.getLogger(ACCESS_LOGGER).setLevel(Level.OFF);
        }
    }

    /** Started before the choice: read the same file again, now with the properties set. */
    private static void reconfigure(LoggerContext context) {
        URL file = ConfigurationWatchListUtil.getMainWatchURL(context);
        if (file == null) {
            return; // configured by code, or Logback's defaults: nothing of ours to read again
        }
        JoranConfigurator configurator = new JoranConfigurator();
        configurator.setContext(context);
        context.reset();
        try {
            configurator.doConfigure(file);
        } catch (JoranException e) {
            throw new IllegalStateException("cannot configure logging from " + file + ": " + e.getMessage(), e);
        }
    }
}
