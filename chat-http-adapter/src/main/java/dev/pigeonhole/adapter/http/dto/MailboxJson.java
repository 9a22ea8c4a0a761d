package dev.pigeonhole.adapter.http.dto;

import dev.pigeonhole.domain.model.mailbox.DirectMessage;

import java.util.List;

/** The oldest messages of the caller's mailbox, oldest first; reading removed none of them. */
public record MailboxJson(List<MessageJson> messages) {

    public static MailboxJson from(List<DirectMessage> messages) {
        return new MailboxJson(messages.stream().map(MessageJson::from).toList());
    }
}
