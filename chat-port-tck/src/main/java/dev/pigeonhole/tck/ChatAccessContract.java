package dev.pigeonhole.tck;

import dev.pigeonhole.domain.model.ChatId;
import dev.pigeonhole.domain.model.NotAMemberException;
import dev.pigeonhole.domain.model.UnknownChatException;
import dev.pigeonhole.domain.model.UserId;
import dev.pigeonhole.domain.model.chat.Access;
import dev.pigeonhole.domain.model.chat.Message;
import dev.pigeonhole.domain.model.chat.MessagePage;
import dev.pigeonhole.domain.model.limits.Limits;
import dev.pigeonhole.domain.port.out.Chats;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * The promises of {@link Chats} about who may come into a chat and what it may read once in
 * (docs/DESIGN.md §3, "Private chats"): only a member brings someone into a private chat, anyone
 * joins an open one by itself, and whoever comes in later reads nothing sent before it came. To
 * anyone outside it a private chat answers as a chat that does not exist, so a guessed id tells a
 * stranger nothing; only an open chat says "not a member".
 */
public abstract class ChatAccessContract extends ChatsContractSupport {

    // ---------------------------------------------------------------- who may bring whom in

    @Test
    public void a_member_adds_someone_to_a_private_chat() {
        UserId alice = user("alice");
        UserId carol = user("carol");
        ChatId chat = chatId();
        chats.open(chat, alice, Set.of(alice), "one", at());

        assertThat(chats.join(chat, alice, carol).added()).isTrue();

        assertThat(summary(carol, chat).members()).containsExactlyInAnyOrder(alice, carol);
        assertThat(summary(carol, chat).access()).isEqualTo(Access.PRIVATE);
    }

    @Test
    public void no_one_joins_a_private_chat_by_itself_and_trying_changes_nothing() {
        UserId alice = user("alice");
        UserId eve = user("eve");
        ChatId chat = chatId();
        chats.open(chat, alice, Set.of(alice), "one", at());

        assertThatExceptionOfType(UnknownChatException.class).isThrownBy(() -> chats.join(chat, eve, eve));

        assertThat(chats.chatsOf(eve)).isEmpty();
        assertThat(summary(alice, chat).members()).containsExactly(alice);
        assertThatExceptionOfType(UnknownChatException.class).isThrownBy(() -> chats.read(eve, chat, 0, 10));
    }

    @Test
    public void to_a_stranger_a_private_chat_answers_as_one_that_does_not_exist() {
        UserId alice = user("alice");
        UserId eve = user("eve");
        UserId mallory = user("mallory");
        ChatId existing = chatId();
        ChatId missing = chatId();
        chats.open(existing, alice, Set.of(alice), "private", at());
        List<Function<ChatId, Object>> asks = List.of(
                chat -> chats.read(eve, chat, 0, 10),
                chat -> chats.send(chat, eve, "hello?", at()),
                chat -> {
                    chats.acknowledge(eve, chat, 1);
                    return null;
                },
                chat -> {
                    chats.acknowledge(eve, new TreeMap<>(Map.of(chat, 1L)));
                    return null;
                },
                chat -> chats.join(chat, eve, eve),
                chat -> chats.join(chat, eve, mallory),
                chat -> chats.leave(chat, eve));

        for (Function<ChatId, Object> ask : asks) {
            Throwable toExisting = catchThrowable(() -> ask.apply(existing));
            Throwable toMissing = catchThrowable(() -> ask.apply(missing));
            assertThat(toExisting).isInstanceOf(UnknownChatException.class).hasSameClassAs(toMissing)
                    .hasMessage(toMissing.getMessage().replace(missing.value(), existing.value()));
        }
        assertThat(chats.chatsOf(eve)).isEmpty();
        assertThat(chats.chatsOf(mallory)).isEmpty();
        assertThat(summary(alice, existing).members()).containsExactly(alice);
        assertThat(summary(alice, existing).lastId()).isEqualTo(1);
    }

    @Test
    public void a_stranger_to_an_open_chat_is_told_it_is_not_a_member() {
        UserId alice = user("alice");
        UserId eve = user("eve");
        ChatId chat = chatId();
        chats.open(chat, alice, Set.of(alice), Access.OPEN, "all welcome", at());

        assertThatExceptionOfType(NotAMemberException.class).isThrownBy(() -> chats.read(eve, chat, 0, 10));
        assertThatExceptionOfType(NotAMemberException.class).isThrownBy(() -> chats.send(chat, eve, "hi", at()));
        assertThatExceptionOfType(NotAMemberException.class).isThrownBy(() -> chats.acknowledge(eve, chat, 1));
        assertThatExceptionOfType(NotAMemberException.class).isThrownBy(() -> chats.leave(chat, eve));
        assertThat(summary(alice, chat).lastId()).isEqualTo(1);
    }

    @Test
    public void someone_outside_a_chat_adds_no_one_to_it_even_an_open_one() {
        UserId alice = user("alice");
        UserId eve = user("eve");
        UserId mallory = user("mallory");
        ChatId closed = chatId();
        ChatId open = chatId();
        chats.open(closed, alice, Set.of(alice), "private", at());
        chats.open(open, alice, Set.of(alice), Access.OPEN, "open", at());

        assertThatExceptionOfType(UnknownChatException.class).isThrownBy(() -> chats.join(closed, eve, mallory));
        assertThatExceptionOfType(NotAMemberException.class).isThrownBy(() -> chats.join(open, eve, mallory));

        assertThat(chats.chatsOf(mallory)).isEmpty();
        assertThat(summary(alice, open).members()).containsExactly(alice);
    }

    @Test
    public void anyone_joins_an_open_chat_by_itself() {
        UserId alice = user("alice");
        UserId dave = user("dave");
        ChatId chat = chatId();
        chats.open(chat, alice, Set.of(alice), Access.OPEN, "all welcome", at());

        assertThat(chats.join(chat, dave, dave).added()).isTrue();

        assertThat(summary(dave, chat).access()).isEqualTo(Access.OPEN);
        assertThat(summary(alice, chat).members()).containsExactlyInAnyOrder(alice, dave);
    }

    @Test
    public void a_member_joining_a_private_chat_again_by_itself_is_not_refused() {
        UserId alice = user("alice");
        UserId bob = user("bob");
        ChatId chat = chatId();
        chats.open(chat, alice, Set.of(alice, bob), "one", at());

        assertThat(chats.join(chat, bob, bob).added()).isFalse();
    }

    // ---------------------------------------------------------------- join points

    @Test
    public void the_creator_and_the_first_members_read_from_the_first_message() {
        UserId alice = user("alice");
        UserId bob = user("bob");
        ChatId chat = chatId();
        Message first = chats.open(chat, alice, Set.of(bob), "one", at()).message();

        assertThat(chats.read(bob, chat, 0, 10).messages()).containsExactly(first);
        assertThat(chats.read(alice, chat, 0, 10).messages()).containsExactly(first);
    }

    @Test
    public void someone_added_later_reads_nothing_sent_before_it_came_in() {
        UserId alice = user("alice");
        UserId carol = user("carol");
        ChatId chat = chatId();
        chats.open(chat, alice, Set.of(alice), "before carol", at());
        chats.send(chat, alice, "still before carol", at());

        chats.join(chat, alice, carol);

        MessagePage history = chats.read(carol, chat, 0, 10);
        assertThat(history.messages()).as("history from id 0").isEmpty();
        assertThat(history.gap()).as("nothing of carol's is missing").isFalse();
        assertThat(history.firstAvailableId()).as("carol's history starts after her join point").isEqualTo(3);
        assertThat(chats.read(carol, chat, 1, 10).messages()).isEmpty();
        assertThat(pendingIn(carol, chat).messages()).isEmpty();
        assertThat(summary(carol, chat).unread()).isZero();

        Message after = chats.send(chat, alice, "welcome, carol", at());

        assertThat(chats.read(carol, chat, 0, 10).messages()).containsExactly(after);
        assertThat(pendingIn(carol, chat).messages()).containsExactly(after);
    }

    @Test
    public void someone_joining_an_open_chat_reads_nothing_sent_before_either() {
        UserId alice = user("alice");
        UserId dave = user("dave");
        ChatId chat = chatId();
        chats.open(chat, alice, Set.of(alice), Access.OPEN, "before dave", at());

        chats.join(chat, dave, dave);

        assertThat(chats.read(dave, chat, 0, 10).messages()).isEmpty();
    }

    @Test
    public void adding_a_member_again_keeps_its_cursor_and_its_join_point() {
        UserId alice = user("alice");
        UserId carol = user("carol");
        ChatId chat = chatId();
        chats.open(chat, alice, Set.of(alice), "one", at());
        chats.join(chat, alice, carol);
        Message two = chats.send(chat, alice, "two", at());
        Message three = chats.send(chat, alice, "three", at());

        assertThat(chats.join(chat, alice, carol).added()).isFalse();

        assertThat(summary(carol, chat).cursor()).as("cursor kept").isEqualTo(1);
        assertThat(pendingIn(carol, chat).messages()).as("no unread skipped").containsExactly(two, three);
        assertThat(chats.read(carol, chat, 0, 10).messages()).as("no history widened")
                .containsExactly(two, three);
    }

    @Test
    public void leaving_and_coming_back_starts_from_the_latest_id_again() {
        UserId alice = user("alice");
        UserId carol = user("carol");
        ChatId chat = chatId();
        chats.open(chat, alice, Set.of(alice, carol), "one", at());
        chats.leave(chat, carol);
        chats.send(chat, alice, "said while carol was away", at());

        chats.join(chat, alice, carol);

        assertThat(chats.read(carol, chat, 0, 10).messages())
                .as("not even what she read before she left").isEmpty();
        Message back = chats.send(chat, alice, "welcome back", at());
        assertThat(chats.read(carol, chat, 0, 10).messages()).containsExactly(back);
    }

    @Test
    public void a_join_point_older_than_what_retention_kept_shows_a_gap() {
        Chats small = storeWith(Limits.DEFAULTS.withMaxRetained(3)).chats();
        UserId alice = user("alice");
        UserId carol = user("carol");
        ChatId chat = chatId();
        small.open(chat, alice, Set.of(alice), "message 1", at());
        small.join(chat, alice, carol);
        for (int n = 2; n <= 7; n++) {
            small.send(chat, alice, "message " + n, at());
        }

        MessagePage history = small.read(carol, chat, 0, 10);

        assertThat(history.gap()).as("messages 2 to 4 came after carol joined, and are gone").isTrue();
        assertThat(history.firstAvailableId()).isEqualTo(5);
        assertThat(history.messages()).extracting(Message::id).containsExactly(5L, 6L, 7L);
    }

    @Test
    public void a_join_point_within_what_retention_kept_shows_no_gap() {
        Chats small = storeWith(Limits.DEFAULTS.withMaxRetained(3)).chats();
        UserId alice = user("alice");
        UserId carol = user("carol");
        ChatId chat = chatId();
        small.open(chat, alice, Set.of(alice), "message 1", at());
        for (int n = 2; n <= 5; n++) {
            small.send(chat, alice, "message " + n, at());
        }
        small.join(chat, alice, carol);
        small.send(chat, alice, "message 6", at());

        MessagePage history = small.read(carol, chat, 0, 10);

        assertThat(history.gap()).isFalse();
        assertThat(history.firstAvailableId()).isEqualTo(6);
        assertThat(history.messages()).extracting(Message::id).containsExactly(6L);
    }
}
