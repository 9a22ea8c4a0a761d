package dev.pigeonhole.domain.service;

import dev.pigeonhole.domain.model.Channel;
import dev.pigeonhole.domain.model.ChatAlreadyExistsException;
import dev.pigeonhole.domain.model.ChatId;
import dev.pigeonhole.domain.model.ChatSummary;
import dev.pigeonhole.domain.model.CreatedChat;
import dev.pigeonhole.domain.model.InvalidInputException;
import dev.pigeonhole.domain.model.Limits;
import dev.pigeonhole.domain.model.LiveEvent;
import dev.pigeonhole.domain.model.Message;
import dev.pigeonhole.domain.model.MessagePage;
import dev.pigeonhole.domain.model.MessageText;
import dev.pigeonhole.domain.model.PendingChat;
import dev.pigeonhole.domain.model.UserId;
import dev.pigeonhole.domain.port.in.AcknowledgeMessages;
import dev.pigeonhole.domain.port.in.CreateChat;
import dev.pigeonhole.domain.port.in.FetchPending;
import dev.pigeonhole.domain.port.in.JoinChat;
import dev.pigeonhole.domain.port.in.LeaveChat;
import dev.pigeonhole.domain.port.in.ListChats;
import dev.pigeonhole.domain.port.in.ReadMessages;
import dev.pigeonhole.domain.port.in.SendMessage;
import dev.pigeonhole.domain.port.out.Channels;
import dev.pigeonhole.domain.port.out.Chats;

import java.time.InstantSource;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * The group chat use cases. Thin on purpose: the atomic work (ids, cursors, trimming) has to
 * happen inside the store in one step, so this service checks what configuration decides
 * (limits), reads the clock, and hands over to {@link Chats}.
 */
public final class ChatService implements CreateChat, SendMessage, FetchPending, AcknowledgeMessages,
        ReadMessages, JoinChat, LeaveChat, ListChats {

    private static final int GENERATED_ID_ATTEMPTS = 5;

    private final Chats chats;
    private final Channels channels;
    private final Limits limits;
    private final InstantSource clock;

    /** @param channels where membership changes are announced, so live connections follow them */
    public ChatService(Chats chats, Channels channels, Limits limits, InstantSource clock) {
        this.chats = Objects.requireNonNull(chats, "chats");
        this.channels = Objects.requireNonNull(channels, "channels");
        this.limits = Objects.requireNonNull(limits, "limits");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    @Override
    public CreatedChat create(CreateChat.Command command) {
        MessageText.check(command.firstMessage(), limits);
        Set<UserId> members = command.members();
        if (members.size() > limits.maxMembers()) {
            throw new InvalidInputException("a chat may have at most " + limits.maxMembers()
                    + " members; this one would have " + members.size());
        }
        if (command.chat().isPresent()) {
            return open(command.chat().get(), command, members);
        }
        // A generated id can be claimed by someone choosing the same id before we open it:
        // then draw another. Each clash needs a concurrent creator, so a few tries always do.
        for (int attempt = 1; ; attempt++) {
            try {
                return open(chats.newChatId(), command, members);
            } catch (ChatAlreadyExistsException clash) {
                if (attempt == GENERATED_ID_ATTEMPTS) {
                    throw clash;
                }
            }
        }
    }

    private CreatedChat open(ChatId chat, CreateChat.Command command, Set<UserId> members) {
        Message first = chats.open(chat, command.creator(), members, command.firstMessage(), clock.instant());
        members.forEach(member -> announce(member, chat, true));
        return new CreatedChat(chat, first);
    }

    @Override
    public Message send(SendMessage.Command command) {
        MessageText.check(command.text(), limits);
        return chats.send(command.chat(), command.sender(), command.text(), clock.instant(), command.idempotencyKey());
    }

    @Override
    public List<PendingChat> pending(FetchPending.Query query) {
        return chats.pending(query.user(), query.perChatLimit());
    }

    @Override
    public void acknowledge(AcknowledgeMessages.Command command) {
        chats.acknowledge(command.user(), command.chat(), command.upTo());
    }

    @Override
    public MessagePage messagesAfter(ReadMessages.Query query) {
        return chats.messagesAfter(query.reader(), query.chat(), query.after(), query.limit());
    }

    @Override
    public void join(JoinChat.Command command) {
        chats.join(command.chat(), command.user());
        announce(command.user(), command.chat(), true);
    }

    @Override
    public void leave(LeaveChat.Command command) {
        chats.leave(command.chat(), command.user());
        announce(command.user(), command.chat(), false);
    }

    /** After the store changed, never before: a connection that follows on hearing it must find the member. */
    private void announce(UserId user, ChatId chat, boolean member) {
        channels.publish(Channel.MEMBERSHIPS, new LiveEvent.MembershipChanged(user, chat, member));
    }

    @Override
    public List<ChatSummary> chatsOf(UserId user) {
        return chats.chatsOf(Objects.requireNonNull(user, "user"));
    }
}
