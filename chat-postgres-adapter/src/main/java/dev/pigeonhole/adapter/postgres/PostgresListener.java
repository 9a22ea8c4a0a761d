package dev.pigeonhole.adapter.postgres;

import dev.pigeonhole.domain.model.StoreUnavailableException;
import dev.pigeonhole.domain.model.live.Channel;
import dev.pigeonhole.domain.model.live.ChannelPattern;
import dev.pigeonhole.domain.model.live.LiveEvent;
import dev.pigeonhole.domain.model.live.Topic;
import dev.pigeonhole.domain.port.out.Channels;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * One upstream subscription connection: a plain PgJDBC connection, outside the pool, that LISTENs
 * and is read by one virtual thread, which also delivers to the receiver, one call at a time and
 * in the order the database sent them.
 *
 * <p>PgJDBC lets one thread at a time use a connection, and the reading thread spends its life
 * waiting in {@code getNotifications}, so every LISTEN and UNLISTEN runs on that thread: a caller
 * queues it, wakes the thread with a notification on a channel only this connection listens to,
 * and waits until the database has confirmed it. Should the connection be lost, the thread opens
 * a new one with growing pauses, listens to everything again, and only then tells the receiver
 * (and the callers that were waiting) that it is back.
 *
 * <p>It stays one class past the usual length on purpose: what it listens to, its connection and
 * the changes waiting for a reconnect are read and written by the listening thread alone, and
 * keeping them in one place is what makes that visible.
 */
final class PostgresListener implements Channels.Connection {

    private static final Logger LOG = LoggerFactory.getLogger(PostgresListener.class);

    /** How long one wait for notifications lasts; a wake-up ends it early. */
    private static final int WAIT_MILLIS = 1_000;
    /** A connection quiet this long is asked a {@code select 1}, so a server gone silent is noticed. */
    private static final Duration QUIET = Duration.ofSeconds(10);
    private static final Duration FIRST_PAUSE = Duration.ofMillis(50);
    private static final Duration LONGEST_PAUSE = Duration.ofSeconds(2);

    private final PostgresStore store;
    private final ChannelNames names;
    private final Channels.Receiver receiver;
    private final String applicationName;
    private final String wakeUp;
    private final Duration confirmWithin;
    private final LinkedBlockingQueue<Change> changes = new LinkedBlockingQueue<>();

    // Read and written on the listening thread alone.
    private final Map<String, Channel> channels = new HashMap<>();
    private final Set<ChannelPattern> patterns = new LinkedHashSet<>();
    private final List<Change> awaitingReconnect = new ArrayList<>();
    private Connection connection;
    private long lastHeardNanos;

    private volatile boolean closed;
    private Thread thread;

    PostgresListener(PostgresStore store, Channels.Receiver receiver, String applicationName) {
        this.store = store;
        this.names = store.notices().names();
        this.receiver = receiver;
        this.applicationName = applicationName;
        this.wakeUp = names.wakeUp(UUID.randomUUID().toString());
        PostgresSettings settings = store.settings();
        this.confirmWithin = settings.connectTimeout().plus(settings.statementTimeout());
    }

    /** Connects (failing typed if it cannot) and starts the listening thread. */
    PostgresListener start() {
        try {
            connection = open();
        } catch (SQLException e) {
            throw Transactions.failure(store.settings().endpoint(), "a listening connection", e);
        }
        thread = Thread.ofVirtual().name("postgres-listen-" + applicationName).start(this::run);
        return this;
    }

    @Override
    public void subscribe(Topic topic) {
        await(topic, true);
    }

    @Override
    public void unsubscribe(Topic topic) {
        await(topic, false);
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        wake();
        if (thread != null && thread != Thread.currentThread()) {
            try {
                thread.join(confirmWithin.toMillis() + WAIT_MILLIS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** One LISTEN or UNLISTEN a caller waits for. */
    private record Change(Topic topic, boolean listen, CompletableFuture<Void> done) {
    }

    private void await(Topic topic, boolean listen) {
        if (closed) {
            throw new IllegalStateException("this listening connection is closed");
        }
        Change change = new Change(topic, listen, new CompletableFuture<>());
        changes.add(change);
        wake();
        try {
            change.done().get(confirmWithin.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            throw new StoreUnavailableException("PostgreSQL at " + store.settings().endpoint() + " did not confirm "
                    + (listen ? "subscribing to " : "unsubscribing from ") + topic + " within " + confirmWithin, e);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof RuntimeException runtime ? runtime : new IllegalStateException(e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StoreUnavailableException("interrupted while " + topic + " was being confirmed", e);
        }
    }

    /** Ends the reading thread's wait: a notification on its own channel, through the pool. */
    private void wake() {
        try {
            store.transactions().autocommit("waking a listener", pooled -> {
                try (var notify = pooled.prepareStatement("select pg_notify(?, '')")) {
                    notify.setString(1, wakeUp);
                    notify.execute();
                }
                return null;
            });
        } catch (RuntimeException e) {
            // The database is away: the thread is reconnecting, and runs the change once it is back.
        }
    }

    private void run() {
        Duration pause = FIRST_PAUSE;
        try {
            while (!closed) {
                try {
                    if (connection == null) {
                        connection = open();
                        listenToEverything();
                        pause = FIRST_PAUSE;
                        awaitingReconnect.forEach(change -> change.done().complete(null));
                        awaitingReconnect.clear();
                        receiver.onResubscribed();
                    }
                    applyChanges();
                    keepAlive();
                    PGNotification[] arrived = connection.unwrap(PGConnection.class).getNotifications(WAIT_MILLIS);
                    if (arrived != null && arrived.length > 0) {
                        lastHeardNanos = System.nanoTime();
                        for (PGNotification notification : arrived) {
                            if (closed) {
                                return;
                            }
                            deliver(notification);
                        }
                    }
                } catch (SQLException | StoreUnavailableException e) {
                    if (closed) {
                        return;
                    }
                    LOG.warn("listening connection {} lost ({}); reconnecting", applicationName, e.getMessage());
                    closeQuietly();
                    pause = pauseThenLonger(pause);
                }
            }
        } finally {
            closeQuietly();
            changes.forEach(change -> change.done().complete(null));
            awaitingReconnect.forEach(change -> change.done().complete(null));
        }
    }

    private Connection open() throws SQLException {
        Connection opened = DriverManager.getConnection(store.settings().url(),
                store.connectionProperties(applicationName));
        try (Statement listen = opened.createStatement()) {
            listen.execute("LISTEN " + ChannelNames.quoted(wakeUp));
        }
        lastHeardNanos = System.nanoTime();
        return opened;
    }

    private void listenToEverything() throws SQLException {
        try (Statement listen = connection.createStatement()) {
            for (String name : channels.keySet()) {
                listen.execute("LISTEN " + ChannelNames.quoted(name));
            }
            if (!patterns.isEmpty()) {
                listen.execute("LISTEN " + ChannelNames.quoted(names.everything()));
            }
        }
    }

    /** Runs the queued changes; a change the connection fails is done once it is back and listens to everything. */
    private void applyChanges() throws SQLException {
        for (Change change = changes.poll(); change != null; change = changes.poll()) {
            Optional<String> statement = record(change);
            try {
                if (statement.isPresent()) {
                    try (Statement run = connection.createStatement()) {
                        run.execute(statement.get());
                    }
                }
                change.done().complete(null);
            } catch (SQLException e) {
                awaitingReconnect.add(change);
                throw e;
            }
        }
    }

    /** Records what the connection should listen to, and says which statement makes it so, if any. */
    private Optional<String> record(Change change) {
        return switch (change.topic()) {
            case Channel channel -> {
                String name = names.of(channel);
                boolean changed = change.listen()
                        ? channels.put(name, channel) == null
                        : channels.remove(name) != null;
                yield changed ? Optional.of((change.listen() ? "LISTEN " : "UNLISTEN ") + ChannelNames.quoted(name))
                        : Optional.empty();
            }
            case ChannelPattern pattern -> {
                boolean wasListening = !patterns.isEmpty();
                if (change.listen()) {
                    patterns.add(pattern);
                } else {
                    patterns.remove(pattern);
                }
                String everything = ChannelNames.quoted(names.everything());
                yield wasListening == !patterns.isEmpty() ? Optional.empty()
                        : Optional.of((patterns.isEmpty() ? "UNLISTEN " : "LISTEN ") + everything);
            }
        };
    }

    private void keepAlive() throws SQLException {
        if (System.nanoTime() - lastHeardNanos > QUIET.toNanos()) {
            try (Statement ping = connection.createStatement()) {
                ping.execute("select 1");
            }
            lastHeardNanos = System.nanoTime();
        }
    }

    private void deliver(PGNotification notification) {
        String name = notification.getName();
        if (name.equals(wakeUp)) {
            return;
        }
        NoticePayload.Payload payload;
        try {
            payload = NoticePayload.payload(notification.getParameter());
        } catch (IllegalArgumentException e) {
            LOG.warn("ignoring a notification on {} that is not a live event: {}", name, e.getMessage());
            return;
        }
        Channel channel = payload.channel();
        boolean direct = channel.equals(channels.get(name));
        List<ChannelPattern> matching = name.equals(names.everything())
                ? patterns.stream().filter(pattern -> pattern.matches(channel)).toList()
                : List.of();
        if (!direct && matching.isEmpty()) {
            return; // unsubscribed meanwhile, or a pattern no one here has
        }
        Optional<LiveEvent> event = resolve(payload);
        if (event.isEmpty()) {
            // The message was gone before it could be read: this connection missed an event.
            receiver.onResubscribed();
            return;
        }
        if (direct) {
            receiver.onEvent(channel, channel, event.get());
        }
        matching.forEach(pattern -> receiver.onEvent(pattern, channel, event.get()));
    }

    private Optional<LiveEvent> resolve(NoticePayload.Payload payload) {
        if (payload instanceof NoticePayload.Carried carried) {
            return Optional.of(carried.event());
        }
        try {
            return store.transactions().autocommit("reading a message a notification names",
                    pooled -> Notices.resolve(pooled, payload));
        } catch (StoreUnavailableException e) {
            return Optional.empty();
        }
    }

    private Duration pauseThenLonger(Duration pause) {
        try {
            Thread.sleep(pause);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            closed = true;
        }
        Duration longer = pause.multipliedBy(2);
        return longer.compareTo(LONGEST_PAUSE) > 0 ? LONGEST_PAUSE : longer;
    }

    private void closeQuietly() {
        if (connection != null) {
            try {
                connection.close();
            } catch (SQLException e) {
                // Already broken; nothing more to free.
            }
            connection = null;
        }
    }
}
