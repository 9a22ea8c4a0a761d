package dev.pigeonhole.adapter.http;

import dev.pigeonhole.domain.port.in.chat.AcknowledgeMessages;
import dev.pigeonhole.domain.port.in.chat.CreateChat;
import dev.pigeonhole.domain.port.in.chat.FetchPending;
import dev.pigeonhole.domain.port.in.chat.JoinChat;
import dev.pigeonhole.domain.port.in.chat.LeaveChat;
import dev.pigeonhole.domain.port.in.chat.ListChats;
import dev.pigeonhole.domain.port.in.chat.ReadMessages;
import dev.pigeonhole.domain.port.in.chat.SendMessage;
import dev.pigeonhole.domain.port.in.live.SubscribeToLiveEvents;
import dev.pigeonhole.domain.port.in.mailbox.AcknowledgeDirectMessages;
import dev.pigeonhole.domain.port.in.mailbox.DeliverDirectMessage;
import dev.pigeonhole.domain.port.in.mailbox.ReadDirectMessages;
import dev.pigeonhole.domain.port.in.presence.ListOnlineUsers;
import dev.pigeonhole.domain.port.in.presence.TouchPresence;

import java.util.Objects;

/** Everything the HTTP API asks of the domain: its driving ports, and nothing behind them. */
public record UseCases(
        CreateChat createChat,
        SendMessage sendMessage,
        FetchPending fetchPending,
        AcknowledgeMessages acknowledgeMessages,
        ReadMessages readMessages,
        JoinChat joinChat,
        LeaveChat leaveChat,
        ListChats listChats,
        DeliverDirectMessage deliverDirectMessage,
        ReadDirectMessages readDirectMessages,
        AcknowledgeDirectMessages acknowledgeDirectMessages,
        TouchPresence touchPresence,
        ListOnlineUsers listOnlineUsers,
        SubscribeToLiveEvents subscribeToLiveEvents) {

    public UseCases {
        Objects.requireNonNull(createChat, "createChat");
        Objects.requireNonNull(sendMessage, "sendMessage");
        Objects.requireNonNull(fetchPending, "fetchPending");
        Objects.requireNonNull(acknowledgeMessages, "acknowledgeMessages");
        Objects.requireNonNull(readMessages, "readMessages");
        Objects.requireNonNull(joinChat, "joinChat");
        Objects.requireNonNull(leaveChat, "leaveChat");
        Objects.requireNonNull(listChats, "listChats");
        Objects.requireNonNull(deliverDirectMessage, "deliverDirectMessage");
        Objects.requireNonNull(readDirectMessages, "readDirectMessages");
        Objects.requireNonNull(acknowledgeDirectMessages, "acknowledgeDirectMessages");
        Objects.requireNonNull(touchPresence, "touchPresence");
        Objects.requireNonNull(listOnlineUsers, "listOnlineUsers");
        Objects.requireNonNull(subscribeToLiveEvents, "subscribeToLiveEvents");
    }
}
