package dev.pigeonhole.adapter.inmemory;

import dev.pigeonhole.domain.model.DirectMessage;
import dev.pigeonhole.domain.model.Limits;
import dev.pigeonhole.domain.model.MailboxFullException;
import dev.pigeonhole.domain.model.UserId;
import dev.pigeonhole.domain.port.out.Mailboxes;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;

/**
 * One bounded queue per user, the in-memory counterpart of a Redis LIST per mailbox.
 *
 * <p>Every change to a mailbox runs inside {@link ConcurrentHashMap#compute} for its owner, which
 * is atomic per key. That is what lets an emptied mailbox be removed, so users who read their mail
 * cost nothing: a delivery can never slip into a queue that is being thrown away. Mailboxes of
 * different users do not wait for each other.
 */
public final class InMemoryMailboxes implements Mailboxes {

    private final int capacity;
    private final ConcurrentHashMap<UserId, LinkedBlockingQueue<DirectMessage>> mailboxes = new ConcurrentHashMap<>();

    public InMemoryMailboxes(Limits limits) {
        this.capacity = limits.mailboxCapacity();
    }

    @Override
    public int deliver(UserId recipient, DirectMessage message) {
        Objects.requireNonNull(recipient, "recipient");
        Objects.requireNonNull(message, "message");
        int[] depth = new int[1];
        mailboxes.compute(recipient, (owner, mailbox) -> {
            LinkedBlockingQueue<DirectMessage> queue = mailbox != null ? mailbox : new LinkedBlockingQueue<>(capacity);
            if (!queue.offer(message)) {
                // Thrown from inside compute, so the map is left exactly as it was.
                throw new MailboxFullException(owner, capacity);
            }
            depth[0] = queue.size();
            return queue;
        });
        return depth[0];
    }

    @Override
    public List<DirectMessage> take(UserId owner, int max) {
        List<DirectMessage> taken = new ArrayList<>();
        mailboxes.computeIfPresent(owner, (key, mailbox) -> {
            mailbox.drainTo(taken, max);
            return mailbox.isEmpty() ? null : mailbox;
        });
        return List.copyOf(taken);
    }
}
