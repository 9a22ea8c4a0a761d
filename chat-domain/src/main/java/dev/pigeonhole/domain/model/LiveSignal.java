package dev.pigeonhole.domain.model;

import java.util.Objects;

/** What a local live subscriber receives, in order. */
public sealed interface LiveSignal {

    /** An event published on a channel this subscriber follows. */
    record Event(Channel channel, LiveEvent event) implements LiveSignal {
        public Event {
            Objects.requireNonNull(channel, "channel");
            Objects.requireNonNull(event, "event");
        }
    }

    /** Events may have been missed (the upstream connection dropped): pull now to catch up. */
    record Resync() implements LiveSignal {
    }

    /** The subscription has ended; no signal follows. */
    record Closed(CloseReason reason) implements LiveSignal {
        public Closed {
            Objects.requireNonNull(reason, "reason");
        }
    }

    enum CloseReason {
        /** The subscriber fell behind and its bounded queue filled: reconnect and pull. */
        SLOW,
        /** The subscriber closed it. */
        UNSUBSCRIBED,
        /** The server is shutting down. */
        SHUTDOWN
    }
}
