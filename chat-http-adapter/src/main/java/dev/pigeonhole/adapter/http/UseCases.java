package dev.pigeonhole.adapter.http;

import dev.pigeonhole.domain.port.in.AcknowledgeDirectMessages;
import dev.pigeonhole.domain.port.in.AcknowledgeMessages;
import dev.pigeonhole.domain.port.in.CreateChat;
import dev.pigeonhole.domain.port.in.DeliverDirectMessage;
import dev.pigeonhole.domain.port.in.FetchPending;
import dev.pigeonhole.domain.port.in.JoinChat;
import dev.pigeonhole.domain.port.in.LeaveChat;
import dev.pigeonhole.domain.port.in.ListChats;
import dev.pigeonhole.domain.port.in.ListOnlineUsers;
import dev.pigeonhole.domain.port.in.ReadDirectMessages;
import dev.pigeonhole.domain.port.in.ReadMessages;
import dev.pigeonhole.domain.port.in.SendMessage;
import dev.pigeonhole.domain.port.in.SubscribeToLiveEvents;
import dev.pigeonhole.domain.port.in.TouchPresence;
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
