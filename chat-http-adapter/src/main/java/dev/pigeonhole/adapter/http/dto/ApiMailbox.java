package dev.pigeonhole.adapter.http.dto;

import dev.pigeonhole.domain.model.mailbox.DirectMessage;

import java.util.List;

/** The oldest messages of the caller's mailbox, oldest first; reading removed none of them. */
public record ApiMailbox(List<ApiMessage> messages) {

    public static ApiMailbox from(List<DirectMessage> messages) {
        return new ApiMailbox(messages.stream().map(ApiMessage::from).toList());
    }
}
