package dev.pigeonhole.adapter.http;

import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;

/**
 * Logback's list appender, with each event's MDC read as it is logged: an event reads the MDC
 * lazily, so one first asked on the test's thread would show the test's MDC, not the request's.
 */
final class CapturedLines extends ListAppender<ILoggingEvent> {

    @Override
    protected void append(ILoggingEvent event) {
        event.prepareForDeferredProcessing();
        super.append(event);
    }
}
