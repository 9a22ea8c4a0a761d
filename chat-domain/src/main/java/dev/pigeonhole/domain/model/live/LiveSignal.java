package dev.pigeonhole.domain.model.live;

import dev.pigeonhole.domain.model.UserId;

import java.util.Objects;
import java.util.Set;

/** What a local live subscriber receives, in order. */
public sealed interface LiveSignal {

    /** An event published on a channel this subscriber follows. */
    record Event(Channel channel, LiveEvent event) implements LiveSignal {
        public Event {
            Objects.requireNonNull(channel, "channel");
            Objects.requireNonNull(event, "event");
        }
    }

    /**
     * Who of the people the subscriber shares a chat with came online or went offline since the
     * last such signal, each in its latest state: presence comes folded, not one event per change.
     */
    record Presence(Set<UserId> online, Set<UserId> offline) implements LiveSignal {
        public Presence {
            online = Set.copyOf(online);
            offline = Set.copyOf(offline);
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
