package dev.pigeonhole.app;

import dev.pigeonhole.domain.model.UserId;
import dev.pigeonhole.domain.port.out.Channels;
import dev.pigeonhole.domain.port.out.ChatLock;
import dev.pigeonhole.domain.port.out.Chats;
import dev.pigeonhole.domain.port.out.Consents;
import dev.pigeonhole.domain.port.out.Mailboxes;
import dev.pigeonhole.domain.port.out.PresenceRegistry;
import dev.pigeonhole.domain.port.out.Quotas;
import java.util.Set;
import java.util.function.BooleanSupplier;

/**
 * One backend's implementation of every driven port, plus how to ask whether it answers, how to
 * mend what it keeps of users' chats apart from the chats, and how to let go of whatever it holds
 * (connections, threads).
 */
record DrivenPorts(Chats chats, Mailboxes mailboxes, PresenceRegistry presence, ChatLock lock,
                   Channels channels, Quotas quotas, Consents consents, BooleanSupplier answers, IndexSweep indexes, AutoCloseable resources) {

    /** Mends the users' indexes of chats, and their co-members'; answers how many entries it changed. */
    @FunctionalInterface
    interface IndexSweep {

        /** For a store that keeps no index apart from its chats. */
        IndexSweep NOTHING_TO_MEND = users -> 0;

        int sweep(Set<UserId> users);
    }
}
