package dev.pigeonhole.app;

import dev.pigeonhole.domain.model.UserId;
import dev.pigeonhole.domain.port.out.Channels;
import dev.pigeonhole.domain.port.out.ChatLock;
import dev.pigeonhole.domain.port.out.Chats;
import dev.pigeonhole.domain.port.out.Consents;
import dev.pigeonhole.domain.port.out.Mailboxes;
import dev.pigeonhole.domain.port.out.PresenceRegistry;
import dev.pigeonhole.domain.port.out.Quotas;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.Tracer;
import java.util.Set;
import java.util.function.BooleanSupplier;

/**
 * One backend's implementation of every driven port, plus how to ask whether it answers, how to
 * mend what it keeps of users' chats apart from the chats, and how to let go of whatever it holds
 * (connections, threads).
 */
record DrivenPorts(Chats chats, Mailboxes mailboxes, PresenceRegistry presence, ChatLock lock,
                   Channels channels, Quotas quotas, Consents consents, BooleanSupplier answers, IndexSweep indexes, AutoCloseable resources) {

    /**
     * The same backend with a client span around every call of a port, each carrying {@code store}'s
     * attributes: one port call is one Redis function or one SQL statement group, so it is the
     * store's round trip as the domain sees it.
     */
    DrivenPorts traced(Tracer tracer, Attributes store) {
        return new DrivenPorts(
                Traced.wrap(Chats.class, chats, tracer, SpanKind.CLIENT, store),
                Traced.wrap(Mailboxes.class, mailboxes, tracer, SpanKind.CLIENT, store),
                Traced.wrap(PresenceRegistry.class, presence, tracer, SpanKind.CLIENT, store),
                Traced.wrap(ChatLock.class, lock, tracer, SpanKind.CLIENT, store),
                Traced.wrap(Channels.class, channels, tracer, SpanKind.CLIENT, store),
                Traced.wrap(Quotas.class, quotas, tracer, SpanKind.CLIENT, store),
                Traced.wrap(Consents.class, consents, tracer, SpanKind.CLIENT, store),
                answers, indexes, resources);
    }

    /** Mends the users' indexes of chats, and their co-members'; answers how many entries it changed. */
    @FunctionalInterface
    interface IndexSweep {

        /** For a store that keeps no index apart from its chats. */
        IndexSweep NOTHING_TO_MEND = users -> 0;

        int sweep(Set<UserId> users);
    }
}
