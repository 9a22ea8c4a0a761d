package dev.pigeonhole.app;

import dev.pigeonhole.domain.port.out.Channels;
import dev.pigeonhole.domain.port.out.ChatLock;
import dev.pigeonhole.domain.port.out.Chats;
import dev.pigeonhole.domain.port.out.Mailboxes;
import dev.pigeonhole.domain.port.out.PresenceRegistry;
import dev.pigeonhole.domain.port.out.Quotas;
import java.util.function.BooleanSupplier;

/**
 * One backend's implementation of every driven port, plus how to ask whether it answers and how
 * to let go of whatever it holds (connections, threads).
 */
record DrivenPorts(Chats chats, Mailboxes mailboxes, PresenceRegistry presence, ChatLock lock,
                   Channels channels, Quotas quotas, BooleanSupplier answers, AutoCloseable resources) {
}
