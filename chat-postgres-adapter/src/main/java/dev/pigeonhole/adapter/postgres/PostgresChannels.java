package dev.pigeonhole.adapter.postgres;

import dev.pigeonhole.domain.model.live.Channel;
import dev.pigeonhole.domain.model.live.LiveEvent;
import dev.pigeonhole.domain.port.out.Channels;

import java.util.Objects;

/**
 * Live events over LISTEN/NOTIFY. Publishing is one autocommitted {@code pg_notify}; a port that
 * stores what it announces notifies inside its own transaction instead ({@link Notices}), so the
 * event goes out on commit. Each {@link #connect} opens one listening connection outside the
 * pool; the domain's multiplexer connects once per process, so a server holds one, however many
 * channels its clients follow.
 *
 * <p>Patterns are matched by the listener: every event is also notified on one catch-all channel
 * of the store, which a connection listens to while it has a pattern subscription.
 */
public final class PostgresChannels implements Channels {

    private final PostgresStore store;

    public PostgresChannels(PostgresStore store) {
        this.store = Objects.requireNonNull(store, "store");
    }

    /** What the store's listening sessions are called in {@code pg_stat_activity}. */
    public static String applicationName(PostgresSettings settings) {
        return "pigeonhole-live-" + settings.schema();
    }

    @Override
    public void publish(Channel channel, LiveEvent event) {
        store.transactions().autocommit("publishing on " + channel, connection -> {
            store.notices().announce(connection, channel, event);
            return null;
        });
    }

    @Override
    public Connection connect(Receiver receiver) {
        Objects.requireNonNull(receiver, "receiver");
        return new PostgresListener(store, receiver, applicationName(store.settings())).start();
    }
}
