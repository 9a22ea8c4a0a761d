package dev.pigeonhole.domain.service.chat;

import dev.pigeonhole.domain.model.ChatAlreadyExistsException;
import dev.pigeonhole.domain.model.ChatId;
import dev.pigeonhole.domain.model.MillisecondClock;
import dev.pigeonhole.domain.model.UserId;
import dev.pigeonhole.domain.model.chat.ChatChange;
import dev.pigeonhole.domain.model.chat.ChatSummary;
import dev.pigeonhole.domain.model.chat.CreatedChat;
import dev.pigeonhole.domain.model.chat.Message;
import dev.pigeonhole.domain.model.chat.MessagePage;
import dev.pigeonhole.domain.model.chat.Opened;
import dev.pigeonhole.domain.model.chat.PendingChat;
import dev.pigeonhole.domain.model.chat.PendingChats;
import dev.pigeonhole.domain.model.limits.Limits;
import dev.pigeonhole.domain.model.limits.PendingBudget;
import dev.pigeonhole.domain.model.limits.RateLimits.Write;
import dev.pigeonhole.domain.model.live.Channel;
import dev.pigeonhole.domain.model.live.LiveEvent;
import dev.pigeonhole.domain.port.in.chat.AcknowledgeMessages;
import dev.pigeonhole.domain.port.in.chat.CreateChat;
import dev.pigeonhole.domain.port.in.chat.FetchPending;
import dev.pigeonhole.domain.port.in.chat.JoinChat;
import dev.pigeonhole.domain.port.in.chat.LeaveChat;
import dev.pigeonhole.domain.port.in.chat.ListChats;
import dev.pigeonhole.domain.port.in.chat.ReadMessages;
import dev.pigeonhole.domain.port.in.chat.SendMessage;
import dev.pigeonhole.domain.port.out.Channels;
import dev.pigeonhole.domain.port.out.Chats;
import dev.pigeonhole.domain.port.out.Quotas;
import dev.pigeonhole.domain.service.Admission;

import java.time.InstantSource;
import java.util.List;
import java.util.Objects;

/**
 * The group chat use cases. The rules are the {@link dev.pigeonhole.domain.model.chat.Chat} aggregate's,
 * which every store applies in one atomic step of its own; this service does what lies around
 * that step: it holds the configured body limit against the text, takes a token for the rarer
 * writes (a send's is taken inside the store's step), reads the clock, shares the pending budget
 * out, draws chat ids until one is free, and announces what the store's step left to announce
 * ({@link LiveEvent#announcing(ChatChange)} of an open, a join or a leave).
 */
public final class ChatService implements CreateChat, SendMessage, FetchPending, AcknowledgeMessages,
        ReadMessages, JoinChat, LeaveChat, ListChats {

    private static final int GENERATED_ID_ATTEMPTS = 5;

    private final Chats chats;
    private final Channels channels;
    private final Admission admission;
    private final Limits limits;
    private final MillisecondClock clock;

    /**
     * @param channels where membership changes are announced, so live connections follow them
     * @param quotas   the buckets of creating and inviting, held to {@link Limits#rates()}
     */
    public ChatService(Chats chats, Channels channels, Quotas quotas, Limits limits, InstantSource clock) {
        this.chats = Objects.requireNonNull(chats, "chats");
        this.channels = Objects.requireNonNull(channels, "channels");
        this.limits = Objects.requireNonNull(limits, "limits");
        this.admission = new Admission(quotas, limits.rates());
        // Read to the millisecond here, once: every store keeps times so.
        this.clock = MillisecondClock.of(clock);
    }

    @Override
    public CreatedChat create(CreateChat.Command command) {
        limits.checkBodyLength(command.firstMessage());
        admission.admit(command.creator(), Write.CREATE);
        if (command.chat().isPresent()) {
            return open(command.chat().get(), command);
        }
        // A generated id can be claimed by someone choosing the same id before we open it:
        // then draw another. Each clash needs a concurrent creator, so a few tries always do.
        for (int attempt = 1; ; attempt++) {
            try {
                return open(chats.newChatId(), command);
            } catch (ChatAlreadyExistsException clash) {
                if (attempt == GENERATED_ID_ATTEMPTS) {
                    throw clash;
                }
            }
        }
    }

    private CreatedChat open(ChatId chat, CreateChat.Command command) {
        Opened opened = chats.open(chat, command.creator(), command.others(), command.access(), command.firstMessage(),
                clock.instant());
        announce(opened);
        return new CreatedChat(chat, opened.message());
    }

    @Override
    public Message send(SendMessage.Command command) {
        limits.checkBodyLength(command.text());
        return chats.send(command.chat(), command.sender(), command.text(), clock.instant(), command.idempotencyKey(),
                limits.rates().send());
    }

    /** Within the pending budget, shared out over the chats so none starves the others. */
    @Override
    public List<PendingChat> pending(FetchPending.Query query) {
        PendingBudget budget = limits.pending();
        return PendingChats.within(budget, chats.pending(query.user(), Math.min(query.perChatLimit(), budget.maxMessages())));
    }

    @Override
    public void acknowledge(AcknowledgeMessages.Command command) {
        chats.acknowledge(command.user(), command.chat(), command.upTo());
    }

    @Override
    public void acknowledge(AcknowledgeMessages.Batch batch) {
        chats.acknowledge(batch.user(), batch.upTo());
    }

    @Override
    public MessagePage read(ReadMessages.Query query) {
        return chats.read(query.reader(), query.chat(), query.after(), query.limit());
    }

    @Override
    public void join(JoinChat.Command command) {
        if (!command.by().equals(command.user())) {
            admission.admit(command.by(), Write.INVITE);
        }
        announce(chats.join(command.chat(), command.by(), command.user()));
    }

    @Override
    public void leave(LeaveChat.Command command) {
        announce(chats.leave(command.chat(), command.user()));
    }

    /**
     * After the store changed, never before: a connection that starts following a chat on hearing
     * of it must find the member there. Each change goes to the user it concerns, on its own
     * channel, so news of strangers never reaches anyone else's feed; and to the chat's channel,
     * so the members following it know whose presence they may see. A chat just opened has no
     * one following it yet: its members learn who is in it when they start to.
     */
    private void announce(ChatChange change) {
        for (LiveEvent event : LiveEvent.announcing(change)) {
            if (event instanceof LiveEvent.MembershipChanged changed) {
                channels.publish(Channel.ofUser(changed.user()), changed);
            }
            if (!(change instanceof Opened)) {
                channels.publish(Channel.ofChat(change.chat()), event);
            }
        }
    }

    @Override
    public List<ChatSummary> chatsOf(UserId user) {
        return chats.chatsOf(user);
    }
}
