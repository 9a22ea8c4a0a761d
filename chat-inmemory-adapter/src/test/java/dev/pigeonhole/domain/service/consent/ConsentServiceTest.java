package dev.pigeonhole.domain.service.consent;

import dev.pigeonhole.adapter.inmemory.InMemoryChannels;
import dev.pigeonhole.adapter.inmemory.InMemoryChats;
import dev.pigeonhole.adapter.inmemory.InMemoryConsents;
import dev.pigeonhole.adapter.inmemory.InMemoryMailboxes;
import dev.pigeonhole.adapter.inmemory.InMemoryQuotas;
import dev.pigeonhole.domain.model.ChatId;
import dev.pigeonhole.domain.model.NoInvitationException;
import dev.pigeonhole.domain.model.RateLimitedException;
import dev.pigeonhole.domain.model.TooManyChatsException;
import dev.pigeonhole.domain.model.UnknownChatException;
import dev.pigeonhole.domain.model.UserId;
import dev.pigeonhole.domain.model.chat.ChatSummary;
import dev.pigeonhole.domain.model.chat.Message;
import dev.pigeonhole.domain.model.consent.AddPolicy;
import dev.pigeonhole.domain.model.consent.ConsentLimits;
import dev.pigeonhole.domain.model.consent.Invitation;
import dev.pigeonhole.domain.model.limits.Limits;
import dev.pigeonhole.domain.model.limits.RateLimits;
import dev.pigeonhole.domain.model.live.Channel;
import dev.pigeonhole.domain.model.live.LiveEvent;
import dev.pigeonhole.domain.model.live.Topic;
import dev.pigeonhole.domain.port.in.chat.CreateChat;
import dev.pigeonhole.domain.port.in.chat.JoinChat;
import dev.pigeonhole.domain.port.in.chat.LeaveChat;
import dev.pigeonhole.domain.port.in.chat.ReadMessages;
import dev.pigeonhole.domain.port.in.chat.SendMessage;
import dev.pigeonhole.domain.port.in.consent.AcceptInvitation;
import dev.pigeonhole.domain.port.in.consent.BlockUsers;
import dev.pigeonhole.domain.port.in.consent.ChooseAddPolicy;
import dev.pigeonhole.domain.port.in.consent.DeclineInvitation;
import dev.pigeonhole.domain.port.in.mailbox.DeliverDirectMessage;
import dev.pigeonhole.domain.port.out.Channels;
import dev.pigeonhole.domain.service.Acquaintances;
import dev.pigeonhole.domain.service.chat.ChatService;
import dev.pigeonhole.domain.service.mailbox.MailboxService;
import dev.pigeonhole.testsupport.TestClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Consent through the use cases, on the in-memory store and the server's default policy: what
 * the chat, mailbox and consent services make of a user's {@code Consent} around the stores' steps.
 */
class ConsentServiceTest {

    private static final UserId ALICE = UserId.of("alice");
    private static final UserId BOB = UserId.of("bob");
    private static final UserId MALLORY = UserId.of("mallory");
    private static final Limits LIMITS = Limits.DEFAULTS.withRates(RateLimits.NONE).withMailboxCapacity(20);

    private final TestClock clock = new TestClock();
    private final InMemoryChannels channels = new InMemoryChannels();
    private final InMemoryChats chats = new InMemoryChats(LIMITS, channels);
    private final Acquaintances acquaintances = new Acquaintances(new InMemoryConsents(), chats, channels,
            ConsentLimits.DEFAULTS.withMaxChatsPerUser(3));
    private final ChatService chatService = new ChatService(chats, channels, new InMemoryQuotas(clock), acquaintances,
            LIMITS, clock);
    private final MailboxService mailboxes = new MailboxService(new InMemoryMailboxes(LIMITS, channels),
            new InMemoryQuotas(clock), acquaintances, LIMITS, clock);
    private final ConsentService consent = new ConsentService(acquaintances, clock);
    /** What reaches bob's own channel; in memory it comes on the connection's own thread. */
    private final BlockingQueue<LiveEvent> toBob = new LinkedBlockingQueue<>();
    private final Channels.Connection listening = channels.connect(new Channels.Receiver() {
        @Override
        public void onEvent(Topic via, Channel channel, LiveEvent event) {
            toBob.add(event);
        }

        @Override
        public void onResubscribed() {
        }
    });

    {
        listening.subscribe(Channel.ofUser(BOB));
    }

    @AfterEach
    void stopListening() {
        listening.close();
    }

    private LiveEvent next() throws InterruptedException {
        LiveEvent event = toBob.poll(10, TimeUnit.SECONDS);
        assertThat(event).as("an event on bob's channel within 10 s").isNotNull();
        return event;
    }

    private ChatId open(UserId creator, Set<UserId> others, String first) {
        return chatService.create(new CreateChat.Command(creator, others, Optional.empty(), first)).chat();
    }

    private List<String> readBy(UserId reader, ChatId chat) {
        return chatService.read(new ReadMessages.Query(reader, chat, 0, 100)).messages().stream().map(Message::body)
                .toList();
    }

    private List<ChatId> chatsOf(UserId user) {
        return chatService.chatsOf(user).stream().map(ChatSummary::chat).toList();
    }

    @Test
    void a_strangers_add_is_an_invitation_that_joins_where_it_was_made() throws InterruptedException {
        ChatId lunch = open(ALICE, Set.of(), "before bob");
        chatService.send(new SendMessage.Command(lunch, ALICE, "still before"));

        chatService.join(new JoinChat.Command(lunch, ALICE, BOB));
        chatService.send(new SendMessage.Command(lunch, ALICE, "while bob thinks"));

        assertThat(chatsOf(BOB)).isEmpty();
        assertThat(next()).isInstanceOfSatisfying(LiveEvent.Invited.class, invited -> {
            assertThat(invited.invitation().inviter()).isEqualTo(ALICE);
            assertThat(invited.invitation().joinPoint()).isEqualTo(2);
            assertThat(invited.invitation().members()).isEqualTo(1);
        });

        chatService.accept(new AcceptInvitation.Command(BOB, lunch));

        assertThat(readBy(BOB, lunch)).containsExactly("while bob thinks");
        assertThat(consent.invitations(BOB)).isEmpty();
        assertThat(next()).as("nothing else reached bob before he accepted")
                .isEqualTo(new LiveEvent.MembershipChanged(BOB, lunch, true));
    }

    @Test
    void an_invitation_at_creation_reads_the_first_message_and_a_co_member_then_adds_directly() {
        ChatId first = open(ALICE, Set.of(BOB), "hello bob");
        chatService.accept(new AcceptInvitation.Command(BOB, first));

        ChatId second = open(ALICE, Set.of(BOB), "again");

        assertThat(readBy(BOB, first)).containsExactly("hello bob");
        assertThat(chatsOf(BOB)).containsExactlyInAnyOrder(first, second);
    }

    @Test
    void a_user_who_lets_anyone_add_it_is_added_and_one_who_declines_is_left_alone() {
        assertThat(consent.policyOf(BOB)).as("the server's default").isEqualTo(AddPolicy.CO_MEMBERS);
        consent.choose(new ChooseAddPolicy.Command(BOB, AddPolicy.ANYONE));
        assertThat(consent.policyOf(BOB)).isEqualTo(AddPolicy.ANYONE);
        ChatId direct = open(MALLORY, Set.of(BOB), "in you go");
        consent.choose(new ChooseAddPolicy.Command(BOB, AddPolicy.CO_MEMBERS));
        ChatId invited = open(ALICE, Set.of(BOB), "would you?");

        consent.decline(new DeclineInvitation.Command(BOB, invited));

        assertThat(chatsOf(BOB)).containsExactly(direct);
        assertThatExceptionOfType(NoInvitationException.class)
                .isThrownBy(() -> chatService.accept(new AcceptInvitation.Command(BOB, invited)));
    }

    @Test
    void a_blocked_users_invitations_vanish_and_its_direct_messages_are_refused_as_a_strangers() {
        open(MALLORY, Set.of(BOB), "hi");

        consent.block(new BlockUsers.Command(BOB, MALLORY));
        open(MALLORY, Set.of(BOB), "hi again");

        assertThat(chatsOf(BOB)).as("neither added nor invited").isEmpty();
        assertThat(consent.invitations(BOB)).isEmpty();
        assertThat(consent.blocked(BOB)).containsExactly(MALLORY);
        assertThatExceptionOfType(RateLimitedException.class)
                .isThrownBy(() -> mailboxes.deliver(new DeliverDirectMessage.Command(MALLORY, BOB, "psst")));

        consent.unblock(new BlockUsers.Command(BOB, MALLORY));
        assertThat(mailboxes.deliver(new DeliverDirectMessage.Command(MALLORY, BOB, "psst")).message().id()).isEqualTo(1);
    }

    @Test
    void strangers_hold_a_tenth_of_a_mailbox_while_a_co_member_still_delivers() {
        ChatId shared = open(ALICE, Set.of(), "ours");
        chatService.join(new JoinChat.Command(shared, ALICE, BOB));
        chatService.accept(new AcceptInvitation.Command(BOB, shared));
        mailboxes.deliver(new DeliverDirectMessage.Command(UserId.of("stranger-1"), BOB, "one"));
        mailboxes.deliver(new DeliverDirectMessage.Command(UserId.of("stranger-2"), BOB, "two"));

        assertThatExceptionOfType(RateLimitedException.class).isThrownBy(() ->
                mailboxes.deliver(new DeliverDirectMessage.Command(UserId.of("stranger-3"), BOB, "three")));
        assertThat(mailboxes.deliver(new DeliverDirectMessage.Command(ALICE, BOB, "from a friend")).message().id())
                .isEqualTo(3);
    }

    @Test
    void a_user_in_as_many_chats_as_it_may_be_is_invited_and_refused_an_accept_until_it_leaves_one() {
        consent.choose(new ChooseAddPolicy.Command(BOB, AddPolicy.ANYONE));
        List<ChatId> full = List.of(open(UserId.of("host-1"), Set.of(BOB), "1"),
                open(UserId.of("host-2"), Set.of(BOB), "2"), open(UserId.of("host-3"), Set.of(BOB), "3"));

        ChatId fourth = open(ALICE, Set.of(BOB), "4");

        assertThat(chatsOf(BOB)).containsExactlyInAnyOrderElementsOf(full);
        assertThat(consent.invitations(BOB)).extracting(Invitation::chat).containsExactly(fourth);
        assertThatExceptionOfType(TooManyChatsException.class)
                .isThrownBy(() -> chatService.accept(new AcceptInvitation.Command(BOB, fourth)));
        assertThat(consent.invitations(BOB)).as("a refused accept changes nothing").hasSize(1);

        chatService.leave(new LeaveChat.Command(full.getFirst(), BOB));
        chatService.accept(new AcceptInvitation.Command(BOB, fourth));
        assertThat(chatsOf(BOB)).contains(fourth);
    }

    @Test
    void an_invitation_whose_chat_is_gone_is_forgotten_and_answered_as_none() {
        ChatId gone = open(ALICE, Set.of(BOB), "short-lived");
        chatService.leave(new LeaveChat.Command(gone, ALICE));

        assertThatExceptionOfType(NoInvitationException.class)
                .isThrownBy(() -> chatService.accept(new AcceptInvitation.Command(BOB, gone)));
        assertThat(consent.invitations(BOB)).isEmpty();
        assertThatExceptionOfType(UnknownChatException.class).isThrownBy(() -> readBy(BOB, gone));
    }

    @Test
    void an_invitation_lapses_after_its_lifetime() {
        open(ALICE, Set.of(BOB), "soon stale");

        clock.advance(ConsentLimits.DEFAULTS.invitationLifetime().minus(Duration.ofMillis(1)));
        assertThat(consent.invitations(BOB)).hasSize(1);
        clock.advance(Duration.ofMillis(1));
        assertThat(consent.invitations(BOB)).isEmpty();
    }
}
