package dev.pigeonhole.adapter.inmemory;

import dev.pigeonhole.domain.model.UserId;
import dev.pigeonhole.domain.model.limits.Limits;
import dev.pigeonhole.domain.model.live.Channel;
import dev.pigeonhole.domain.model.live.LiveEvent;
import dev.pigeonhole.domain.model.mailbox.Delivered;
import dev.pigeonhole.domain.model.mailbox.DirectMessage;
import dev.pigeonhole.domain.model.mailbox.Mailbox;
import dev.pigeonhole.domain.model.mailbox.Sender;
import dev.pigeonhole.domain.port.out.Mailboxes;

import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The domain's {@link Mailbox} aggregate per user, with its messages in a queue beside it: the
 * in-memory counterpart of a Redis LIST and its counter key.
 *
 * <p>Every look at or change to a mailbox runs inside {@link ConcurrentHashMap#compute} for its
 * owner, which is atomic per key, so a mailbox needs no lock of its own and mailboxes of different
 * users never wait for each other. A delivery is announced inside that step too, so one owner's
 * deliveries go out in id order. A mailbox stays in the map once emptied: its ids must go on from
 * where they were, and it costs a few dozen bytes per user who ever got a message.
 */
public final class InMemoryMailboxes implements Mailboxes {

    private final Limits limits;
    private final InMemoryChannels channels;
    private final ConcurrentHashMap<UserId, Kept> mailboxes = new ConcurrentHashMap<>();

    public InMemoryMailboxes(Limits limits, InMemoryChannels channels) {
        this.limits = Objects.requireNonNull(limits, "limits");
        this.channels = Objects.requireNonNull(channels, "channels");
    }

    @Override
    public Delivered deliver(UserId recipient, UserId sender, String body, Instant at, Sender from) {
        Objects.requireNonNull(recipient, "recipient");
        Delivered[] delivered = new Delivered[1];
        mailboxes.compute(recipient, (owner, existing) -> {
            Kept kept = existing != null ? existing : new Kept(new Mailbox(owner, limits));
            // A refusal is thrown from inside compute, so the map is left exactly as it was.
            delivered[0] = kept.mailbox.deliver(sender, body, at, from);
            kept.messages.addLast(delivered[0].message());
            channels.publish(Channel.ofUser(owner), LiveEvent.announcing(delivered[0]));
            return kept;
        });
        return delivered[0];
    }

    @Override
    public List<DirectMessage> read(UserId owner, int max) {
        List<DirectMessage> read = new ArrayList<>();
        mailboxes.computeIfPresent(owner, (key, kept) -> {
            read.addAll(kept.mailbox.read(max, kept::after));
            return kept;
        });
        return List.copyOf(read);
    }

    @Override
    public void acknowledge(UserId owner, long upTo) {
        mailboxes.compute(owner, (key, existing) -> {
            Kept kept = existing != null ? existing : new Kept(new Mailbox(owner, limits));
            long acknowledged = kept.mailbox.acknowledge(upTo);
            while (!kept.messages.isEmpty() && kept.messages.peekFirst().id() <= acknowledged) {
                kept.messages.removeFirst();
            }
            // A mailbox never delivered to stays out of the map, as if it had not been asked.
            return existing;
        });
    }

    /** A mailbox and its messages; touched only inside {@code compute} for its owner, one thread at a time. */
    private record Kept(Mailbox mailbox, ArrayDeque<DirectMessage> messages) {

        Kept(Mailbox mailbox) {
            this(mailbox, new ArrayDeque<>());
        }

        /** The queue as the aggregate reads it: it holds only what is not yet acknowledged. */
        List<DirectMessage> after(long id, int limit) {
            List<DirectMessage> after = new ArrayList<>(Math.min(limit, messages.size()));
            for (DirectMessage message : messages) {
                if (after.size() == limit) {
                    break;
                }
                if (message.id() > id) {
                    after.add(message);
                }
            }
            return after;
        }
    }
}
