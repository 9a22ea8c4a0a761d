package dev.pigeonhole.adapter.http;

import dev.pigeonhole.domain.port.in.mailbox.AcknowledgeDirectMessages;
import dev.pigeonhole.domain.port.in.mailbox.DeliverDirectMessage;
import dev.pigeonhole.domain.port.in.mailbox.ReadDirectMessages;

/** Direct messages, for {@link MailboxRoutes}: the domain's {@code port.in.mailbox}. */
public record MailboxUseCases(
        DeliverDirectMessage deliverDirectMessage,
        ReadDirectMessages readDirectMessages,
        AcknowledgeDirectMessages acknowledgeDirectMessages) {
}
