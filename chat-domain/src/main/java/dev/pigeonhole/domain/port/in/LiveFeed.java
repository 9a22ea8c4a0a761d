package dev.pigeonhole.domain.port.in;

import dev.pigeonhole.domain.model.ChatId;
import dev.pigeonhole.domain.model.LiveSignal;

import java.time.Duration;
import java.util.Optional;

/**
 * One client's live feed. Signals wait in a bounded queue; a client that does not keep up is
 * cut off with {@link LiveSignal.CloseReason#SLOW} rather than allowed to grow memory, and
 * catches up by pulling when it reconnects.
 */
public interface LiveFeed extends AutoCloseable {

    /**
     * The next signal, waiting up to {@code timeout}; empty if none came. After a
     * {@link LiveSignal.Closed} signal the feed is over and every later call returns it again.
     */
    Optional<LiveSignal> next(Duration timeout) throws InterruptedException;

    /** Adds a chat's events, for a chat joined while connected. */
    void follow(ChatId chat);

    /** Removes a chat's events, for a chat left while connected. */
    void unfollow(ChatId chat);

    boolean isOpen();

    @Override
    void close();
}
