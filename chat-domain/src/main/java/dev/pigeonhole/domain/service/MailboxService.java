package dev.pigeonhole.domain.service;

import dev.pigeonhole.domain.model.DirectMessage;
import dev.pigeonhole.domain.model.Limits;
import dev.pigeonhole.domain.port.in.DeliverDirectMessage;
import dev.pigeonhole.domain.port.in.TakeDirectMessages;
import dev.pigeonhole.domain.port.out.Mailboxes;

import java.time.InstantSource;
import java.util.List;
import java.util.Objects;

/** Single-recipient messaging: deliver to a mailbox, take from your own. */
public final class MailboxService implements DeliverDirectMessage, TakeDirectMessages {

    private final Mailboxes mailboxes;
    private final Limits limits;
    private final InstantSource clock;

    public MailboxService(Mailboxes mailboxes, Limits limits, InstantSource clock) {
        this.mailboxes = Objects.requireNonNull(mailboxes, "mailboxes");
        this.limits = Objects.requireNonNull(limits, "limits");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    @Override
    public int deliver(DeliverDirectMessage.Command command) {
        limits.checkBodyLength(command.text());
        return mailboxes.deliver(command.recipient(), new DirectMessage(clock.instant(), command.sender(), command.text()));
    }

    @Override
    public List<DirectMessage> take(TakeDirectMessages.Command command) {
        return mailboxes.take(command.owner(), command.max());
    }
}
