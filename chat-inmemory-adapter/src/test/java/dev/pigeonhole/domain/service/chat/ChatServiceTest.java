package dev.pigeonhole.domain.service.chat;

import dev.pigeonhole.adapter.inmemory.InMemoryChannels;
import dev.pigeonhole.adapter.inmemory.InMemoryChats;
import dev.pigeonhole.adapter.inmemory.InMemoryConsents;
import dev.pigeonhole.adapter.inmemory.InMemoryQuotas;
import dev.pigeonhole.domain.model.ChatAlreadyExistsException;
import dev.pigeonhole.domain.model.ChatId;
import dev.pigeonhole.domain.model.InvalidInputException;
import dev.pigeonhole.domain.model.RateLimitedException;
import dev.pigeonhole.domain.model.UnknownChatException;
import dev.pigeonhole.domain.model.UserId;
import dev.pigeonhole.domain.model.chat.Access;
import dev.pigeonhole.domain.model.chat.ChatSummary;
import dev.pigeonhole.domain.model.chat.CreatedChat;
import dev.pigeonhole.domain.model.chat.IdempotencyKey;
import dev.pigeonhole.domain.model.chat.Joined;
import dev.pigeonhole.domain.model.chat.Left;
import dev.pigeonhole.domain.model.chat.Message;
import dev.pigeonhole.domain.model.chat.MessagePage;
import dev.pigeonhole.domain.model.chat.Opened;
import dev.pigeonhole.domain.model.chat.PendingChat;
import dev.pigeonhole.domain.model.consent.AddPolicy;
import dev.pigeonhole.domain.model.consent.ConsentLimits;
import dev.pigeonhole.domain.model.limits.Limits;
import dev.pigeonhole.domain.model.limits.PendingBudget;
import dev.pigeonhole.domain.model.limits.RateLimit;
import dev.pigeonhole.domain.model.limits.RateLimits;
import dev.pigeonhole.domain.model.live.Channel;
import dev.pigeonhole.domain.model.live.LiveEvent.MembershipChanged;
import dev.pigeonhole.domain.model.live.LiveEvent.MessagePosted;
import dev.pigeonhole.domain.port.in.chat.AcknowledgeMessages;
import dev.pigeonhole.domain.port.in.chat.CreateChat;
import dev.pigeonhole.domain.port.in.chat.FetchPending;
import dev.pigeonhole.domain.port.in.chat.JoinChat;
import dev.pigeonhole.domain.port.in.chat.LeaveChat;
import dev.pigeonhole.domain.port.in.chat.ReadMessages;
import dev.pigeonhole.domain.port.in.chat.SendMessage;
import dev.pigeonhole.domain.port.out.Chats;
import dev.pigeonhole.domain.service.Acquaintances;
import dev.pigeonhole.domain.service.Heard;
import dev.pigeonhole.testsupport.TestClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The group chat use cases on the in-memory store: what the service adds around the store's
 * step (the configured body limit, the clock, drawing chat ids, announcing memberships).
 */
class ChatServiceTest {

    private static final UserId ALICE = UserId.of("alice");
    private static final UserId BOB = UserId.of("bob");
    private static final UserId CAROL = UserId.of("carol");
    private static final ChatId LUNCH = ChatId.of("lunch");
    private static final Limits LIMITS = Limits.DEFAULTS.withMaxBodyLength(10);

    private final TestClock clock = new TestClock();
    private final InMemoryChannels channels = new InMemoryChannels();
    private final InMemoryChats chats = new InMemoryChats(LIMITS, channels);
    private final Heard toAlice = new Heard(channels, Channel.ofUser(ALICE));
    private final Heard toBob = new Heard(channels, Channel.ofUser(BOB));
    private final Heard toCarol = new Heard(channels, Channel.ofUser(CAROL));
    private final Heard inLunch = new Heard(channels, Channel.ofChat(LUNCH));
    /** Adds go through as the book's do, unless a test says otherwise. */
    private final Acquaintances anyoneAdds = new Acquaintances(new InMemoryConsents(), chats, channels,
            ConsentLimits.DEFAULTS.withDefaultPolicy(AddPolicy.ANYONE));
    private final ChatService service = new ChatService(chats, channels, new InMemoryQuotas(clock), anyoneAdds, LIMITS, clock);

    @AfterEach
    void stopListening() {
        toAlice.close();
        toBob.close();
        toCarol.close();
        inLunch.close();
    }

    private CreatedChat openLunch() {
        return service.create(new CreateChat.Command(ALICE, Set.of(BOB), Optional.of(LUNCH), "hi bob"));
    }

    @Test
    void creating_opens_the_chat_with_its_first_message_at_the_clock_s_time() {
        CreatedChat created = openLunch();

        assertThat(created.chat()).isEqualTo(LUNCH);
        assertThat(created.firstMessage()).isEqualTo(new Message(1, TestClock.START, ALICE, "hi bob"));
        assertThat(service.chatsOf(BOB)).extracting(ChatSummary::chat).containsExactly(LUNCH);
    }

    @Test
    void a_message_is_stamped_with_the_clock_read_to_the_millisecond() {
        openLunch();
        InstantSource finer = InstantSource.fixed(TestClock.START.plusNanos(1_234_567));
        ChatService stamping = new ChatService(chats, channels, new InMemoryQuotas(clock), anyoneAdds, LIMITS, finer);

        Message sent = stamping.send(new SendMessage.Command(LUNCH, BOB, "hi"));

        assertThat(sent.sentAt()).isEqualTo(TestClock.START.plusMillis(1));
        assertThat(service.read(new ReadMessages.Query(BOB, LUNCH, 1, 10)).messages()).containsExactly(sent);
    }

    @Test
    void every_member_of_a_new_chat_is_told_on_its_own_channel_and_no_one_else_is() throws InterruptedException {
        openLunch();

        assertThat(toAlice.all()).containsExactly(new MembershipChanged(ALICE, LUNCH, true));
        assertThat(toBob.all()).containsExactly(new MembershipChanged(BOB, LUNCH, true));
        assertThat(toCarol.all()).isEmpty();
        assertThat(inLunch.all()).as("no one follows a chat before it is opened: nothing goes there")
                .extracting(event -> event.getClass().getSimpleName()).containsExactly("MessagePosted");
    }

    @Test
    void a_chat_without_a_chosen_id_gets_one_from_the_store() {
        CreatedChat created = service.create(new CreateChat.Command(ALICE, Set.of(), Optional.empty(), "hello"));

        assertThat(service.chatsOf(ALICE)).extracting(ChatSummary::chat).containsExactly(created.chat());
    }

    @Test
    void a_generated_id_that_someone_chose_meanwhile_is_drawn_again() {
        ChatService racing = 
                new ChatService(new ChoosingFirst(chats, 1), channels, new InMemoryQuotas(clock), anyoneAdds, LIMITS, clock);

        CreatedChat created = racing.create(new CreateChat.Command(ALICE, Set.of(), Optional.empty(), "hello"));

        ChatId takenMeanwhile = chats.chatsOf(CAROL).getFirst().chat();
        assertThat(created.chat()).isNotEqualTo(takenMeanwhile);
        assertThat(chats.chatsOf(ALICE)).extracting(ChatSummary::chat).containsExactly(created.chat());
    }

    @Test
    void after_five_clashes_in_a_row_creating_gives_up() {
        ChatService racing = 
                new ChatService(new ChoosingFirst(chats, 5), channels, new InMemoryQuotas(clock), anyoneAdds, LIMITS, clock);

        assertThatExceptionOfType(ChatAlreadyExistsException.class).isThrownBy(
                () -> racing.create(new CreateChat.Command(ALICE, Set.of(), Optional.empty(), "hello")));
        assertThat(service.chatsOf(ALICE)).isEmpty();
    }

    @Test
    void a_chosen_id_that_is_taken_is_refused() {
        openLunch();

        assertThatExceptionOfType(ChatAlreadyExistsException.class).isThrownBy(
                () -> service.create(new CreateChat.Command(CAROL, Set.of(), Optional.of(LUNCH), "mine")));
    }

    @Test
    void a_body_over_the_configured_limit_is_refused_and_nothing_is_stored() {
        openLunch();

        assertThatExceptionOfType(InvalidInputException.class)
                .isThrownBy(() -> service.send(new SendMessage.Command(LUNCH, BOB, "far too long for it")))
                .withMessage("message is 19 characters long; the limit is 10");
        assertThatExceptionOfType(InvalidInputException.class).isThrownBy(() -> service.create(
                new CreateChat.Command(ALICE, Set.of(), Optional.of(ChatId.of("other")), "far too long for it")));
        assertThat(service.chatsOf(BOB).getFirst().lastId()).isEqualTo(1);
        assertThat(service.chatsOf(ALICE)).hasSize(1);
    }

    @Test
    void a_send_is_stamped_with_the_clock_and_announced_by_the_store() throws InterruptedException {
        openLunch();
        clock.advance(Duration.ofMinutes(1));
        try (Heard lunch = new Heard(channels, Channel.ofChat(LUNCH))) {

            Message sent = service.send(new SendMessage.Command(LUNCH, BOB, "hi alice",
                    Optional.of(IdempotencyKey.of("k1"))));
            Message again = service.send(new SendMessage.Command(LUNCH, BOB, "hi alice",
                    Optional.of(IdempotencyKey.of("k1"))));

            assertThat(sent).isEqualTo(new Message(2, TestClock.START.plusSeconds(60), BOB, "hi alice"));
            assertThat(again).isEqualTo(sent);
            assertThat(lunch.all()).containsExactly(new MessagePosted(LUNCH, sent));
        }
    }

    @Test
    void pending_read_and_acknowledge_go_to_the_store_unchanged() {
        openLunch();
        service.send(new SendMessage.Command(LUNCH, ALICE, "two"));

        List<PendingChat> pending = service.pending(new FetchPending.Query(BOB, 1));
        service.acknowledge(new AcknowledgeMessages.Command(BOB, LUNCH, 1));
        MessagePage page = service.read(new ReadMessages.Query(BOB, LUNCH, 1, 10));

        assertThat(pending).singleElement().satisfies(chat -> {
            assertThat(chat.unread()).isEqualTo(2);
            assertThat(chat.messages()).extracting(Message::id).containsExactly(1L);
        });
        assertThat(service.chatsOf(BOB).getFirst().cursor()).isEqualTo(1);
        assertThat(page.messages()).extracting(Message::body).containsExactly("two");
    }

    @Test
    void a_batch_acknowledge_moves_each_chat_s_cursor_in_one_call() {
        openLunch();
        ChatId dinner = service.create(new CreateChat.Command(ALICE, Set.of(BOB), Optional.of(ChatId.of("dinner")), "and")).chat();

        service.acknowledge(new AcknowledgeMessages.Batch(BOB, new TreeMap<>(Map.of(LUNCH, 1L, dinner, 1L))));

        assertThat(service.pending(new FetchPending.Query(BOB, 10))).as("nothing unread in either").hasSize(2)
                .allSatisfy(chat -> assertThat(chat.unread()).isZero());
    }

    @Test
    void joining_tells_the_newcomer_and_the_chat_and_joining_again_tells_no_one() throws InterruptedException {
        openLunch();
        inLunch.all();

        service.join(new JoinChat.Command(LUNCH, ALICE, CAROL));
        service.join(new JoinChat.Command(LUNCH, ALICE, CAROL));

        assertThat(toCarol.all()).containsExactly(new MembershipChanged(CAROL, LUNCH, true));
        assertThat(inLunch.all()).as("the members following the chat learn who is in it")
                .containsExactly(new MembershipChanged(CAROL, LUNCH, true));
        assertThat(toAlice.all()).containsExactly(new MembershipChanged(ALICE, LUNCH, true));
    }

    @Test
    void leaving_tells_the_leaver_and_the_chat_after_it_is_gone() throws InterruptedException {
        openLunch();
        toBob.all();
        inLunch.all();

        service.leave(new LeaveChat.Command(LUNCH, BOB));

        assertThat(toBob.all()).containsExactly(new MembershipChanged(BOB, LUNCH, false));
        assertThat(inLunch.all()).containsExactly(new MembershipChanged(BOB, LUNCH, false));
        assertThat(service.chatsOf(BOB)).isEmpty();
    }

    @Test
    void a_refused_change_announces_nothing() throws InterruptedException {
        assertThatExceptionOfType(UnknownChatException.class)
                .isThrownBy(() -> service.join(JoinChat.Command.self(LUNCH, CAROL)));

        assertThat(toCarol.all()).isEmpty();
        assertThat(inLunch.all()).isEmpty();
    }

    @Test
    void sends_are_held_to_the_configured_rate_by_the_clock() {
        ChatService strict = new ChatService(chats, channels, new InMemoryQuotas(clock), anyoneAdds,
                LIMITS.withRates(RateLimits.DEFAULTS.withSend(new RateLimit(2, Duration.ofMinutes(1)))), clock);
        openLunch();
        strict.send(new SendMessage.Command(LUNCH, BOB, "one"));
        strict.send(new SendMessage.Command(LUNCH, BOB, "two"));

        assertThatExceptionOfType(RateLimitedException.class)
                .isThrownBy(() -> strict.send(new SendMessage.Command(LUNCH, BOB, "three")))
                .withMessage("too many sends: the limit is 2/1m; try again in 30 s");
        clock.advance(Duration.ofSeconds(30));
        assertThat(strict.send(new SendMessage.Command(LUNCH, BOB, "three")).id()).isEqualTo(4);
    }

    @Test
    void creating_and_inviting_take_tokens_from_the_users_own_buckets_and_a_refusal_changes_nothing() {
        ChatService strict = new ChatService(chats, channels, new InMemoryQuotas(clock), anyoneAdds,
                LIMITS.withRates(new RateLimits(RateLimit.NONE, new RateLimit(1, Duration.ofMinutes(1)), new RateLimit(1, Duration.ofMinutes(1)),
                        RateLimit.NONE)), clock);
        strict.create(new CreateChat.Command(ALICE, Set.of(), Optional.of(LUNCH), "hi"));
        assertThatExceptionOfType(RateLimitedException.class).isThrownBy(() ->
                strict.create(new CreateChat.Command(ALICE, Set.of(), Optional.of(ChatId.of("dinner")), "hi")));
        strict.join(new JoinChat.Command(LUNCH, ALICE, BOB));

        assertThatExceptionOfType(RateLimitedException.class)
                .isThrownBy(() -> strict.join(new JoinChat.Command(LUNCH, ALICE, CAROL)));
        assertThat(service.chatsOf(ALICE)).extracting(ChatSummary::chat).containsExactly(LUNCH);
        assertThat(service.chatsOf(CAROL)).isEmpty();
        assertThat(strict.create(new CreateChat.Command(BOB, Set.of(), Optional.of(ChatId.of("dinner")), "hi"))
                .chat()).as("bob's bucket is his own").isEqualTo(ChatId.of("dinner"));
    }

    @Test
    void pending_holds_what_the_budget_allows_and_says_where_more_waits() {
        ChatService budgeted = new ChatService(chats, channels, new InMemoryQuotas(clock), anyoneAdds,
                LIMITS.withPending(new PendingBudget(3, 1 << 20)), clock);
        openLunch();
        for (int i = 0; i < 5; i++) {
            budgeted.send(new SendMessage.Command(LUNCH, ALICE, "m" + i));
        }

        List<PendingChat> pending = budgeted.pending(new FetchPending.Query(BOB));

        assertThat(pending.getFirst().messages()).extracting(Message::body).containsExactly("hi bob", "m0", "m1");
        assertThat(pending.getFirst().more()).isTrue();
        assertThat(pending.getFirst().unread()).isEqualTo(6);
    }

    /**
     * The in-memory store, with someone else choosing each id it draws just before this creator
     * opens it, the first {@code times} times: the race a generated id can lose.
     */
    private static final class ChoosingFirst implements Chats {

        private final Chats store;
        private int times;

        ChoosingFirst(Chats store, int times) {
            this.store = store;
            this.times = times;
        }

        @Override
        public ChatId newChatId() {
            ChatId drawn = store.newChatId();
            if (times-- > 0) {
                store.open(drawn, CAROL, Set.of(), "mine first", Instant.EPOCH);
            }
            return drawn;
        }

        @Override
        public Opened open(ChatId chat, UserId creator, Set<UserId> members, Access access, String body,
                           Instant at) {
            return store.open(chat, creator, members, access, body, at);
        }

        @Override
        public Message send(ChatId chat, UserId sender, String body, Instant at, Optional<IdempotencyKey> key,
                            RateLimit rate) {
            return store.send(chat, sender, body, at, key, rate);
        }

        @Override
        public List<PendingChat> pending(UserId user, int perChatLimit) {
            return store.pending(user, perChatLimit);
        }

        @Override
        public void acknowledge(UserId user, ChatId chat, long upTo) {
            store.acknowledge(user, chat, upTo);
        }

        @Override
        public void acknowledge(UserId user, SortedMap<ChatId, Long> upTo) {
            store.acknowledge(user, upTo);
        }

        @Override
        public MessagePage read(UserId reader, ChatId chat, long after, int limit) {
            return store.read(reader, chat, after, limit);
        }

        @Override
        public Joined join(ChatId chat, UserId by, UserId user) {
            return store.join(chat, by, user);
        }

        @Override
        public Left leave(ChatId chat, UserId user) {
            return store.leave(chat, user);
        }

        @Override
        public List<ChatSummary> chatsOf(UserId user) {
            return store.chatsOf(user);
        }

        @Override
        public ChatSummary summaryOf(UserId member, ChatId chat) {
            return store.summaryOf(member, chat);
        }

        @Override
        public List<ChatId> chatIdsOf(UserId user) {
            return store.chatIdsOf(user);
        }

        @Override
        public Joined accept(ChatId chat, UserId inviter, UserId invitee, long joinPoint) {
            return store.accept(chat, inviter, invitee, joinPoint);
        }
    }
}
