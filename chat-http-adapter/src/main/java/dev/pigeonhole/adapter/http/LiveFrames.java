package dev.pigeonhole.adapter.http;

import dev.pigeonhole.adapter.http.dto.ApiLiveEvent;
import dev.pigeonhole.domain.model.live.LiveEvent;
import dev.pigeonhole.domain.model.live.LiveSignal;

import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The JSON text of live signals, written once per event and shared by every connection that
 * sends it. The multiplexer hands one event, the same object, to every feed following its topic,
 * so a message to a chat of a thousand open connections was written out a thousand times; here
 * the first connection to send it writes it and the others take the same text. What differs per
 * connection stays out of the text: an event stream's {@code id:} is the stream's own.
 *
 * <p>The text is remembered by the event's identity, never by its content: two events that are
 * merely equal (a catch-up reads its messages anew for each feed) are written each on their own,
 * so no connection can be handed another's text. The memory is a fixed table of
 * {@link #SLOTS} entries, each the last event whose identity hash fell there, so at most that many
 * texts are held; an event pushed out before every connection took it is written again, which
 * costs time and is still right. Presence diffs are each feed's own and are written every time.
 */
final class LiveFrames {

    /**
     * A signal as a client reads it: the event, for what a transport puts around it (an event
     * stream's event name and id), its JSON text, and the text's size in UTF-8 bytes, which is
     * what it costs while unsent.
     */
    record Frame(ApiLiveEvent event, String text, int bytes) {
    }

    /**
     * Enough for the events of the last few moments, which is when every connection takes a
     * fanned-out event: a message is at most a few kilobytes, so a few megabytes at worst.
     */
    static final int SLOTS = 256;

    /** The same few bytes for every connection and every time. */
    private static final Frame RESYNC = write(ApiLiveEvent.resync());

    private static final AtomicReferenceArray<Slot> SLOTS_BY_HASH = new AtomicReferenceArray<>(SLOTS);

    private LiveFrames() {
    }

    /**
     * What a client is told of {@code signal}; empty for what it is not told (see
     * {@link ApiLiveEvent#from}). An event's frame is the same object for every caller as long
     * as the event is remembered.
     */
    static Optional<Frame> of(LiveSignal signal) {
        return switch (signal) {
            case LiveSignal.Event event -> shared(event);
            case LiveSignal.Resync resync -> Optional.of(RESYNC);
            default -> ApiLiveEvent.from(signal).map(LiveFrames::write);
        };
    }

    private static Optional<Frame> shared(LiveSignal.Event signal) {
        LiveEvent event = signal.event();
        int index = System.identityHashCode(event) & (SLOTS - 1);
        Slot seen = SLOTS_BY_HASH.get(index);
        if (seen != null && seen.event == event) {
            return seen.frame(signal);
        }
        Slot fresh = new Slot(event);
        Slot witness = SLOTS_BY_HASH.compareAndExchange(index, seen, fresh);
        // Another connection filled the slot first: with this event, take its frame; with another, keep ours unshared.
        Slot mine = witness == seen || witness == null || witness.event != event ? fresh : witness;
        return mine.frame(signal);
    }

    private static Frame write(ApiLiveEvent event) {
        byte[] utf8 = Json.write(event);
        return new Frame(event, new String(utf8, StandardCharsets.UTF_8), utf8.length);
    }

    /** One event and its frame, written by the first caller while the others wait for it. */
    private static final class Slot {

        private final LiveEvent event;
        /** Null until written; empty for an event no client is told of. */
        private volatile Optional<Frame> frame;

        Slot(LiveEvent event) {
            this.event = event;
        }

        Optional<Frame> frame(LiveSignal.Event signal) {
            Optional<Frame> written = frame;
            if (written == null) {
                synchronized (this) {
                    written = frame;
                    if (written == null) {
                        written = ApiLiveEvent.from(signal).map(LiveFrames::write);
                        frame = written;
                    }
                }
            }
            return written;
        }
    }
}
