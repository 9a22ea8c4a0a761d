package dev.pigeonhole.domain.service.chat;

import dev.pigeonhole.domain.model.ChatAlreadyExistsException;
import dev.pigeonhole.domain.model.ChatId;
import dev.pigeonhole.domain.model.MillisecondClock;
import dev.pigeonhole.domain.model.NoInvitationException;
import dev.pigeonhole.domain.model.NotAMemberException;
import dev.pigeonhole.domain.model.UnknownChatException;
import dev.pigeonhole.domain.model.UserId;
import dev.pigeonhole.domain.model.chat.Chat;
import dev.pigeonhole.domain.model.chat.ChatChange;
import dev.pigeonhole.domain.model.chat.ChatSummary;
import dev.pigeonhole.domain.model.chat.CreatedChat;
import dev.pigeonhole.domain.model.chat.Joined;
import dev.pigeonhole.domain.model.chat.Message;
import dev.pigeonhole.domain.model.chat.MessagePage;
import dev.pigeonhole.domain.model.chat.Opened;
import dev.pigeonhole.domain.model.chat.PendingChat;
import dev.pigeonhole.domain.model.chat.PendingChats;
import dev.pigeonhole.domain.model.consent.Invitation;
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
import dev.pigeonhole.domain.port.in.consent.AcceptInvitation;
import dev.pigeonhole.domain.port.out.Channels;
import dev.pigeonhole.domain.port.out.Chats;
import dev.pigeonhole.domain.port.out.Quotas;
import dev.pigeonhole.domain.service.Acquaintances;
import dev.pigeonhole.domain.service.Admission;

import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * The group chat use cases. The rules are the {@link dev.pigeonhole.domain.model.chat.Chat} aggregate's,
 * which every store applies in one atomic step of its own; this service does what lies around
 * that step: it holds the configured body limit against the text, takes a token for the rarer
 * writes (a send's is taken inside the store's step), reads the clock, shares the pending budget
 * out, draws chat ids until one is free, and announces what the store's step left to announce
 * ({@link LiveEvent#announcing(ChatChange)} of an open, a join or a leave).
 */
public final class ChatService implements CreateChat, SendMessage, FetchPending, AcknowledgeMessages,
        ReadMessages, JoinChat, AcceptInvitation, LeaveChat, ListChats {

    private static final int GENERATED_ID_ATTEMPTS = 5;

    private final Chats chats;
    private final Channels channels;
    private final Admission admission;
    private final Acquaintances acquaintances;
    private final Limits limits;
    private final MillisecondClock clock;

    /**
     * @param channels where membership changes are announced, so live connections follow them
     * @param quotas   the buckets of creating and inviting, held to {@link Limits#rates()}
     * @param acquaintances whom each user lets add it, and who shares a chat with whom: an add it
     *                      does not let through becomes an invitation
     */
    public ChatService(Chats chats, Channels channels, Quotas quotas, Acquaintances acquaintances, Limits limits,
                       InstantSource clock) {
        this.chats = Objects.requireNonNull(chats, "chats");
        this.acquaintances = Objects.requireNonNull(acquaintances, "acquaintances");
        this.channels = Objects.requireNonNull(channels, "channels");
        this.limits = Objects.requireNonNull(limits, "limits");
        this.admission = new Admission(quotas, limits.rates());
        // Read to the millisecond here, once: every store keeps times so.
        this.clock = MillisecondClock.of(clock);
    }

    @Override
    public CreatedChat create(CreateChat.Command command) {
        limits.checkBodyLength(command.firstMessage());
        // Counted before anyone is told apart from an invitee: too many is wrong whoever accepts.
        if (command.members().size() > limits.maxMembers()) {
            throw Chat.tooManyMembers(limits.maxMembers(), command.members().size());
        }
        admission.admit(command.creator(), Write.CREATE);
        acquaintances.checkRoomForANewChat(command.creator());
        Set<UserId> added = new TreeSet<>();
        Set<UserId> invited = new TreeSet<>();
        Acquaintances.Adder creator = acquaintances.adding(command.creator());
        for (UserId other : command.others()) {
            (creator.mayAdd(other) ? added : invited).add(other);
        }
        if (command.chat().isPresent()) {
            return open(command.chat().get(), command, added, invited);
        }
        // A generated id can be claimed by someone choosing the same id before we open it:
        // then draw another. Each clash needs a concurrent creator, so a few tries always do.
        for (int attempt = 1; ; attempt++) {
            try {
                return open(chats.newChatId(), command, added, invited);
            } catch (ChatAlreadyExistsException clash) {
                if (attempt == GENERATED_ID_ATTEMPTS) {
                    throw clash;
                }
            }
        }
    }

    /** The invited join at 0, like the members: the first message came with their invitation. */
    private CreatedChat open(ChatId chat, CreateChat.Command command, Set<UserId> added, Set<UserId> invited) {
        Instant now = clock.instant();
        Opened opened = chats.open(chat, command.creator(), added, command.access(), command.firstMessage(), now);
        announce(opened);
        for (UserId invitee : invited) {
            acquaintances.invite(invitee, new Invitation(chat, command.creator(), 0, opened.members().size(), now), now);
        }
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
        if (command.by().equals(command.user())) {
            acquaintances.checkRoomFor(command.user(), command.chat());
            announce(chats.join(command.chat(), command.user(), command.user()));
            return;
        }
        admission.admit(command.by(), Write.INVITE);
        if (acquaintances.mayAdd(command.by(), command.user())) {
            announce(chats.join(command.chat(), command.by(), command.user()));
            return;
        }
        // Read by the inviter, so a stranger to the chat is refused as a join would refuse it.
        ChatSummary chat = chats.summaryOf(command.by(), command.chat());
        if (chat.members().contains(command.user())) {
            return;
        }
        Instant now = clock.instant();
        acquaintances.invite(command.user(),
                new Invitation(command.chat(), command.by(), chat.lastId(), chat.members().size(), now), now);
    }

    /**
     * Joins where the invitation says; the invitation is forgotten only once that worked, so a
     * refused accept (a full chat, too many chats) changes nothing. An invitation whose chat or
     * inviter is gone is forgotten, and answered as no invitation.
     */
    @Override
    public void accept(AcceptInvitation.Command command) {
        Invitation invitation = acquaintances.consentOf(command.user()).invitationTo(command.chat(), clock.instant());
        acquaintances.checkRoomFor(command.user(), command.chat());
        Joined joined;
        try {
            joined = chats.accept(command.chat(), invitation.inviter(), command.user(), invitation.joinPoint());
        } catch (UnknownChatException | NotAMemberException lapsed) {
            forgetInvitation(command);
            throw new NoInvitationException(command.user(), command.chat());
        }
        forgetInvitation(command);
        announce(joined);
    }

    private void forgetInvitation(AcceptInvitation.Command command) {
        acquaintances.change(command.user(), consent -> {
            consent.forget(command.chat());
            return null;
        });
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
