package dev.pigeonhole.adapter.inmemory;

import dev.pigeonhole.domain.model.live.LiveEvent;
import dev.pigeonhole.domain.model.MailboxFullException;
import dev.pigeonhole.domain.model.UserId;
import dev.pigeonhole.domain.model.limits.Limits;
import dev.pigeonhole.domain.model.live.Channel;
import dev.pigeonhole.domain.model.mailbox.Delivered;
import dev.pigeonhole.domain.model.mailbox.DirectMessage;
import dev.pigeonhole.domain.port.out.Mailboxes;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One bounded queue per user with its id counter, the in-memory counterpart of a Redis LIST and
 * its counter key.
 *
 * <p>Every look at or change to a mailbox runs inside {@link ConcurrentHashMap#compute} for its
 * owner, which is atomic per key, so a mailbox needs no lock of its own and mailboxes of different
 * users never wait for each other. A delivery is announced inside that step too, so one owner's
 * deliveries go out in id order. A mailbox stays in the map once emptied: its counter must go on
 * from where it was, and it costs a few dozen bytes per user who ever got a message.
 */
public final class InMemoryMailboxes implements Mailboxes {

    private final int capacity;
    private final InMemoryChannels channels;
    private final ConcurrentHashMap<UserId, Mailbox> mailboxes = new ConcurrentHashMap<>();

    public InMemoryMailboxes(Limits limits, InMemoryChannels channels) {
        this.capacity = limits.mailboxCapacity();
        this.channels = Objects.requireNonNull(channels, "channels");
    }

    @Override
    public Delivered deliver(UserId recipient, UserId sender, String body, Instant at) {
        Objects.requireNonNull(recipient, "recipient");
        Delivered[] delivered = new Delivered[1];
        mailboxes.compute(recipient, (owner, existing) -> {
            Mailbox mailbox = existing != null ? existing : new Mailbox();
            if (mailbox.messages.size() >= capacity) {
                // Thrown from inside compute, so the map is left exactly as it was.
                throw new MailboxFullException(owner, capacity);
            }
            // Kept to the millisecond, as every store keeps times.
            DirectMessage message = new DirectMessage(mailbox.lastId + 1, at.truncatedTo(ChronoUnit.MILLIS), sender, body);
            mailbox.lastId = message.id();
            mailbox.messages.addLast(message);
            delivered[0] = new Delivered(owner, message, mailbox.messages.size());
            channels.publish(Channel.ofUser(owner), LiveEvent.announcing(delivered[0]));
            return mailbox;
        });
        return delivered[0];
    }

    @Override
    public List<DirectMessage> read(UserId owner, int max) {
        List<DirectMessage> read = new ArrayList<>();
        mailboxes.computeIfPresent(owner, (key, mailbox) -> {
            for (DirectMessage message : mailbox.messages) {
                if (read.size() == max) {
                    break;
                }
                read.add(message);
            }
            return mailbox;
        });
        return List.copyOf(read);
    }

    @Override
    public void acknowledge(UserId owner, long upTo) {
        mailboxes.compute(owner, (key, mailbox) -> {
            long lastId = mailbox == null ? 0 : mailbox.lastId;
            if (upTo > lastId) {
                throw DirectMessage.beyondLastId(owner, upTo, lastId);
            }
            if (mailbox == null) {
                return null;
            }
            while (!mailbox.messages.isEmpty() && mailbox.messages.peekFirst().id() <= upTo) {
                mailbox.messages.removeFirst();
            }
            return mailbox;
        });
    }

    /** Touched only inside {@code compute} for its owner, one thread at a time. */
    private static final class Mailbox {
        private final ArrayDeque<DirectMessage> messages = new ArrayDeque<>();
        private long lastId;
    }
}
