package dev.pigeonhole.app;

import org.slf4j.LoggerFactory;

/**
 * A program for {@link LogFormatTest}, run in a JVM of its own: it logs before the log format is
 * chosen, as a server would that read the choice from a file after starting up, then chooses JSON.
 */
final class LateLogChoice {

    private LateLogChoice() {
    }

    public static void main(String[] args) {
        LoggerFactory.getLogger(LateLogChoice.class).info("before the choice");
        Logs.use(Logs.Format.JSON, false);
        LoggerFactory.getLogger(LateLogChoice.class).info("after the choice");
        LoggerFactory.getLogger(Logs.ACCESS_LOGGER).info("an access line, turned off");
        java.util.logging.Logger.getLogger("a.library").warning("a library's own logging");
    }
}
