package dev.pigeonhole.adapter.http;

import dev.pigeonhole.domain.port.in.chat.AcknowledgeMessages;
import dev.pigeonhole.domain.port.in.chat.CreateChat;
import dev.pigeonhole.domain.port.in.chat.FetchPending;
import dev.pigeonhole.domain.port.in.chat.JoinChat;
import dev.pigeonhole.domain.port.in.chat.LeaveChat;
import dev.pigeonhole.domain.port.in.chat.ListChats;
import dev.pigeonhole.domain.port.in.chat.ReadMessages;
import dev.pigeonhole.domain.port.in.chat.SendMessage;

/** Group chat, for {@link ChatRoutes}: the domain's {@code port.in.chat}. */
public record ChatUseCases(
        CreateChat createChat,
        SendMessage sendMessage,
        FetchPending fetchPending,
        AcknowledgeMessages acknowledgeMessages,
        ReadMessages readMessages,
        JoinChat joinChat,
        LeaveChat leaveChat,
        ListChats listChats) {
}
