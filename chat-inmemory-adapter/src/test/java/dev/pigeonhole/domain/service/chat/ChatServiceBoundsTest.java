package dev.pigeonhole.domain.service.chat;

import dev.pigeonhole.adapter.inmemory.InMemoryChannels;
import dev.pigeonhole.adapter.inmemory.InMemoryChats;
import dev.pigeonhole.adapter.inmemory.InMemoryConsents;
import dev.pigeonhole.adapter.inmemory.InMemoryQuotas;
import dev.pigeonhole.domain.model.ChatId;
import dev.pigeonhole.domain.model.InvalidInputException;
import dev.pigeonhole.domain.model.TooManyChatsException;
import dev.pigeonhole.domain.model.UserId;
import dev.pigeonhole.domain.model.chat.Access;
import dev.pigeonhole.domain.model.chat.ChatSummary;
import dev.pigeonhole.domain.model.consent.AddPolicy;
import dev.pigeonhole.domain.model.consent.ConsentLimits;
import dev.pigeonhole.domain.model.limits.Limits;
import dev.pigeonhole.domain.model.live.Channel;
import dev.pigeonhole.domain.model.live.LiveEvent.MembershipChanged;
import dev.pigeonhole.domain.port.in.chat.CreateChat;
import dev.pigeonhole.domain.port.in.chat.JoinChat;
import dev.pigeonhole.domain.service.Acquaintances;
import dev.pigeonhole.domain.service.Heard;
import dev.pigeonhole.testsupport.TestClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.Optional;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The bounds the chat service holds before the store's step: how many members one chat may have,
 * and how many chats one user may be in, whether it creates a chat or joins an open one itself.
 */
class ChatServiceBoundsTest {

    private static final UserId ALICE = UserId.of("alice");
    private static final UserId BOB = UserId.of("bob");
    private static final UserId CAROL = UserId.of("carol");
    private static final UserId DAN = UserId.of("dan");
    private static final int MAX_CHATS = 2;
    private static final Limits LIMITS = Limits.DEFAULTS.withMaxMembers(3);

    private final TestClock clock = new TestClock();
    private final InMemoryChannels channels = new InMemoryChannels();
    private final InMemoryChats chats = new InMemoryChats(LIMITS, channels);
    private final Acquaintances anyoneAdds = new Acquaintances(new InMemoryConsents(), chats, channels,
            ConsentLimits.DEFAULTS.withDefaultPolicy(AddPolicy.ANYONE).withMaxChatsPerUser(MAX_CHATS));
    private final ChatService service = new ChatService(chats, channels, new InMemoryQuotas(clock), anyoneAdds, LIMITS,
            clock);
    private final Heard toAlice = new Heard(channels, Channel.ofUser(ALICE));

    @AfterEach
    void stopListening() {
        toAlice.close();
    }

    @Test
    void a_chat_may_open_with_as_many_members_as_a_chat_may_have_and_not_one_more() {
        ChatId full = create(ALICE, Set.of(BOB, CAROL), "lunch");

        assertThat(chats.summaryOf(ALICE, full).members()).containsExactlyInAnyOrder(ALICE, BOB, CAROL);
        assertThatExceptionOfType(InvalidInputException.class)
                .isThrownBy(() -> create(BOB, Set.of(CAROL, DAN, ALICE), "dinner"))
                .withMessage("a chat may have at most 3 members; this one would have 4");
        assertThat(chats.chatIdsOf(DAN)).as("nothing opened").isEmpty();
    }

    @Test
    void a_user_in_as_many_chats_as_it_may_be_cannot_open_another() {
        create(ALICE, Set.of(), "one");
        create(ALICE, Set.of(), "two");

        assertThatExceptionOfType(TooManyChatsException.class).isThrownBy(() -> create(ALICE, Set.of(BOB), "three"));
        assertThat(chats.chatIdsOf(ALICE)).hasSize(MAX_CHATS);
        assertThat(chats.chatIdsOf(BOB)).as("nothing opened").isEmpty();
    }

    @Test
    void a_user_in_as_many_chats_as_it_may_be_cannot_join_an_open_one_but_may_join_one_it_is_in()
            throws InterruptedException {
        ChatId open = service.create(new CreateChat.Command(BOB, Set.of(), Optional.empty(), Access.OPEN, "all welcome"))
                .chat();
        ChatId mine = create(ALICE, Set.of(), "one");
        create(ALICE, Set.of(), "two");
        toAlice.all();

        assertThatExceptionOfType(TooManyChatsException.class)
                .isThrownBy(() -> service.join(JoinChat.Command.self(open, ALICE)));
        service.join(JoinChat.Command.self(mine, ALICE));

        assertThat(service.chatsOf(ALICE)).extracting(ChatSummary::chat).doesNotContain(open).hasSize(MAX_CHATS);
        assertThat(toAlice.all()).as("neither the refusal nor joining again is news").isEmpty();
    }

    @Test
    void joining_an_open_chat_oneself_tells_the_newcomer_on_its_own_channel() throws InterruptedException {
        ChatId open = service.create(new CreateChat.Command(BOB, Set.of(), Optional.empty(), Access.OPEN, "all welcome"))
                .chat();

        service.join(JoinChat.Command.self(open, ALICE));

        assertThat(toAlice.all()).containsExactly(new MembershipChanged(ALICE, open, true));
        assertThat(chats.summaryOf(BOB, open).members()).containsExactlyInAnyOrder(ALICE, BOB);
    }

    private ChatId create(UserId creator, Set<UserId> others, String first) {
        return service.create(new CreateChat.Command(creator, others, Optional.empty(), first)).chat();
    }
}
