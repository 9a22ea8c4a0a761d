package dev.pigeonhole.tck;

import dev.pigeonhole.domain.model.UserId;
import dev.pigeonhole.domain.model.limits.Limits;
import dev.pigeonhole.domain.model.live.Channel;
import dev.pigeonhole.domain.model.live.LiveEvent;
import dev.pigeonhole.domain.model.mailbox.Delivered;
import dev.pigeonhole.domain.model.mailbox.DirectMessage;
import dev.pigeonhole.domain.model.mailbox.Mailbox;
import dev.pigeonhole.domain.model.mailbox.MailboxLog;
import dev.pigeonhole.domain.model.mailbox.Sender;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The domain's {@link Mailbox} aggregates in a map, one operation at a time: the plainest store
 * there is, and the reference {@link MailboxesDifferentialContract} holds every store to. It holds
 * no rule of its own: it keeps every message ever delivered, and the aggregate says which of them
 * are still held.
 */
final class MailboxReference {

    private final Limits limits;
    private final Map<UserId, Kept> mailboxes = new HashMap<>();
    private final Map<Channel, List<LiveEvent>> announced = new HashMap<>();

    MailboxReference(Limits limits) {
        this.limits = limits;
    }

    private record Kept(Mailbox mailbox, List<DirectMessage> stored) implements MailboxLog {

        @Override
        public List<DirectMessage> after(long id, int limit) {
            return stored.stream().filter(message -> message.id() > id).limit(limit).toList();
        }
    }

    Delivered deliver(UserId recipient, UserId sender, String body, Instant at, Sender from) {
        Kept kept = mailboxes.computeIfAbsent(recipient, owner -> new Kept(new Mailbox(owner, limits), new ArrayList<>()));
        Delivered delivered = kept.mailbox().deliver(sender, body, at, from);
        kept.stored().add(delivered.message());
        announced.computeIfAbsent(Channel.ofUser(recipient), channel -> new ArrayList<>())
                .add(LiveEvent.announcing(delivered));
        return delivered;
    }

    List<DirectMessage> read(UserId owner, int max) {
        Kept kept = mailboxes.get(owner);
        return kept == null ? List.of() : kept.mailbox().read(max, kept);
    }

    void acknowledge(UserId owner, long upTo) {
        Kept kept = mailboxes.get(owner);
        Mailbox mailbox = kept == null ? new Mailbox(owner, limits) : kept.mailbox();
        mailbox.acknowledge(upTo);
    }

    long lastId(UserId owner) {
        Kept kept = mailboxes.get(owner);
        return kept == null ? 0 : kept.mailbox().lastId();
    }

    /** What each owner's channel must have carried, in order. */
    Map<Channel, List<LiveEvent>> announced() {
        return announced;
    }
}
