package dev.pigeonhole.domain.service.mailbox;

import dev.pigeonhole.domain.model.MillisecondClock;
import dev.pigeonhole.domain.model.limits.Limits;
import dev.pigeonhole.domain.model.limits.RateLimits;
import dev.pigeonhole.domain.model.mailbox.Delivered;
import dev.pigeonhole.domain.model.mailbox.DirectMessage;
import dev.pigeonhole.domain.model.mailbox.Mailbox;
import dev.pigeonhole.domain.model.mailbox.Sender;
import dev.pigeonhole.domain.port.in.mailbox.AcknowledgeDirectMessages;
import dev.pigeonhole.domain.port.in.mailbox.DeliverDirectMessage;
import dev.pigeonhole.domain.port.in.mailbox.ReadDirectMessages;
import dev.pigeonhole.domain.port.out.Mailboxes;
import dev.pigeonhole.domain.port.out.Quotas;
import dev.pigeonhole.domain.service.Acquaintances;
import dev.pigeonhole.domain.service.Admission;

import java.time.InstantSource;
import java.util.List;
import java.util.Objects;

/**
 * Single-recipient messaging: deliver to a mailbox, read your own, acknowledge what you have. The
 * store announces a delivery in the step that stores it ({@link Mailboxes#deliver}), so there is
 * nothing left for this service to announce.
 */
public final class MailboxService implements DeliverDirectMessage, ReadDirectMessages, AcknowledgeDirectMessages {

    private final Mailboxes mailboxes;
    private final Admission admission;
    private final Acquaintances acquaintances;
    private final Limits limits;
    private final MillisecondClock clock;

    /**
     * @param quotas        the senders' buckets for delivering, held to {@link Limits#rates()}
     * @param acquaintances whom each recipient blocked, and who shares a chat with whom: a sender
     *                      who shares none is a stranger, whose share of a mailbox is bounded
     */
    public MailboxService(Mailboxes mailboxes, Quotas quotas, Acquaintances acquaintances, Limits limits,
                          InstantSource clock) {
        this.mailboxes = Objects.requireNonNull(mailboxes, "mailboxes");
        this.acquaintances = Objects.requireNonNull(acquaintances, "acquaintances");
        this.limits = Objects.requireNonNull(limits, "limits");
        this.admission = new Admission(quotas, limits.rates());
        // Read to the millisecond here, once: every store keeps times so.
        this.clock = MillisecondClock.of(clock);
    }

    @Override
    public Delivered deliver(DeliverDirectMessage.Command command) {
        limits.checkBodyLength(command.text());
        admission.admit(command.sender(), RateLimits.Write.DELIVER);
        if (acquaintances.consentOf(command.recipient()).blocks(command.sender())) {
            throw Mailbox.strangerRefused(limits.mailboxCapacity());
        }
        Sender from = acquaintances.shareAChat(command.sender(), command.recipient()) ? Sender.CO_MEMBER
                : Sender.STRANGER;
        return mailboxes.deliver(command.recipient(), command.sender(), command.text(), clock.instant(), from);
    }

    @Override
    public List<DirectMessage> read(ReadDirectMessages.Command command) {
        return mailboxes.read(command.owner(), command.max());
    }

    @Override
    public void acknowledge(AcknowledgeDirectMessages.Command command) {
        mailboxes.acknowledge(command.owner(), command.upTo());
    }
}
