package dev.pigeonhole.tck;

import dev.pigeonhole.domain.model.ChatId;
import dev.pigeonhole.domain.model.InvalidInputException;
import dev.pigeonhole.domain.model.UnknownChatException;
import dev.pigeonhole.domain.model.UserId;
import dev.pigeonhole.domain.model.chat.IdempotencyKey;
import dev.pigeonhole.domain.model.chat.Message;
import dev.pigeonhole.domain.model.limits.Limits;
import dev.pigeonhole.domain.port.out.Chats;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Sends under an idempotency key: what makes retrying a send whose answer was lost harmless.
 * Checked through what members read, so a backend that stored the repeat would be caught even if
 * it answered with the right message.
 */
public abstract class ChatIdempotencyContract extends ChatsContractSupport {

    private static Optional<IdempotencyKey> key() {
        return Optional.of(IdempotencyKey.of("k-" + UUID.randomUUID()));
    }

    @Test
    public void a_send_repeated_under_its_key_stores_one_message_and_answers_with_it_again() {
        UserId alice = user("alice");
        UserId bob = user("bob");
        ChatId chat = chatId();
        chats.open(chat, alice, Set.of(bob), "first", at());
        Optional<IdempotencyKey> key = key();

        Message sent = chats.send(chat, bob, "once", at(), key);
        long bobsCursor = summary(bob, chat).cursor();
        Message repeated = chats.send(chat, bob, "once", at(), key);

        assertThat(repeated).isEqualTo(sent);
        assertThat(chats.read(alice, chat, 0, 10).messages()).extracting(Message::body)
                .containsExactly("first", "once");
        assertThat(pendingIn(alice, chat).unread()).as("only bob's message is new to alice").isEqualTo(1);
        assertThat(summary(bob, chat).cursor()).as("the repeat moved no cursor").isEqualTo(bobsCursor);
    }

    @Test
    public void keys_are_per_sender() {
        UserId alice = user("alice");
        UserId bob = user("bob");
        ChatId chat = chatId();
        chats.open(chat, alice, Set.of(bob), "first", at());
        Optional<IdempotencyKey> key = key();

        Message fromAlice = chats.send(chat, alice, "same words", at(), key);
        Message fromBob = chats.send(chat, bob, "same words", at(), key);

        assertThat(fromBob.id()).isEqualTo(fromAlice.id() + 1);
        assertThat(chats.read(alice, chat, 0, 10).messages()).hasSize(3);
    }

    @Test
    public void keys_are_per_chat() {
        UserId alice = user("alice");
        ChatId one = chatId();
        ChatId two = chatId();
        chats.open(one, alice, Set.of(), "first", at());
        chats.open(two, alice, Set.of(), "first", at());
        Optional<IdempotencyKey> key = key();

        chats.send(one, alice, "hello", at(), key);
        chats.send(two, alice, "hello", at(), key);

        assertThat(chats.read(alice, one, 0, 10).lastId()).isEqualTo(2);
        assertThat(chats.read(alice, two, 0, 10).lastId()).isEqualTo(2);
    }

    @Test
    public void a_key_reused_for_another_message_is_rejected_and_stores_nothing() {
        UserId alice = user("alice");
        ChatId chat = chatId();
        chats.open(chat, alice, Set.of(), "first", at());
        Optional<IdempotencyKey> key = key();
        chats.send(chat, alice, "lunch at noon?", at(), key);

        assertThatExceptionOfType(InvalidInputException.class)
                .isThrownBy(() -> chats.send(chat, alice, "dinner at eight?", at(), key))
                .withMessageContaining(key.get().value());
        assertThat(chats.read(alice, chat, 0, 10).lastId()).isEqualTo(2);
    }

    @Test
    public void a_key_is_forgotten_once_its_window_has_passed() {
        UserId alice = user("alice");
        ChatId chat = chatId();
        chats.open(chat, alice, Set.of(), "first", at());
        Optional<IdempotencyKey> key = key();
        Instant first = at();
        Message sent = chats.send(chat, alice, "again", first, key);

        Message justInside = chats.send(chat, alice, "again", first.plus(IdempotencyKey.WINDOW).minusMillis(1), key);
        Message after = chats.send(chat, alice, "again", first.plus(IdempotencyKey.WINDOW), key);

        assertThat(justInside).isEqualTo(sent);
        assertThat(after.id()).isEqualTo(sent.id() + 1);
        assertThat(after.sentAt()).isEqualTo(first.plus(IdempotencyKey.WINDOW));
    }

    @Test
    public void a_repeat_answers_with_the_message_even_after_retention_dropped_it() {
        Chats small = storeWith(Limits.DEFAULTS.withMaxRetained(2)).chats();
        UserId alice = user("alice");
        ChatId chat = chatId();
        small.open(chat, alice, Set.of(), "first", at());
        Optional<IdempotencyKey> key = key();
        Message sent = small.send(chat, alice, "kept by key", at(), key);
        small.send(chat, alice, "newer", at());
        small.send(chat, alice, "newest", at());

        assertThat(small.send(chat, alice, "kept by key", at(), key)).isEqualTo(sent);
        assertThat(small.read(alice, chat, 0, 10).lastId()).isEqualTo(4);
    }

    @Test
    public void a_chat_remembers_no_more_keys_than_it_retains_messages() {
        int retained = 5;
        Chats small = storeWith(Limits.DEFAULTS.withMaxRetained(retained)).chats();
        UserId alice = user("alice");
        ChatId chat = chatId();
        small.open(chat, alice, Set.of(), "first", at());
        List<Message> sent = new ArrayList<>();
        for (int send = 0; send < 3 * retained; send++) {
            sent.add(small.send(chat, alice, "body " + send, at(), Optional.of(IdempotencyKey.of("k" + send))));
        }
        long lastId = sent.getLast().id();

        for (int newest = 3 * retained - retained; newest < 3 * retained; newest++) {
            assertThat(small.send(chat, alice, "body " + newest, at(), Optional.of(IdempotencyKey.of("k" + newest))))
                    .as("a repeat of one of the %d newest keys", retained).isEqualTo(sent.get(newest));
        }
        Message oldestAgain = small.send(chat, alice, "body 0", at(), Optional.of(IdempotencyKey.of("k0")));

        assertThat(oldestAgain.id()).as("the oldest key was forgotten, so this is a new message")
                .isEqualTo(lastId + 1);
    }

    @Test
    public void a_repeat_is_answered_with_the_time_and_id_of_the_first_send() {
        UserId alice = user("alice");
        ChatId chat = chatId();
        chats.open(chat, alice, Set.of(), "first", at());
        Optional<IdempotencyKey> key = key();
        Instant first = at();
        Message sent = chats.send(chat, alice, "said once", first, key);

        Message repeated = chats.send(chat, alice, "said once", first.plusSeconds(90), key);

        assertThat(repeated.id()).isEqualTo(sent.id());
        assertThat(repeated.sentAt()).isEqualTo(first);
        assertThat(repeated.body()).isEqualTo("said once");
    }

    @Test
    public void a_member_who_left_cannot_replay_a_key() {
        UserId alice = user("alice");
        UserId bob = user("bob");
        ChatId chat = chatId();
        chats.open(chat, alice, Set.of(bob), "first", at());
        Optional<IdempotencyKey> key = key();
        chats.send(chat, bob, "bye", at(), key);
        chats.leave(chat, bob);

        assertThatExceptionOfType(UnknownChatException.class).isThrownBy(() -> chats.send(chat, bob, "bye", at(), key));
    }

    @Test
    public void the_last_leave_forgets_the_keys_with_the_chat() {
        UserId alice = user("alice");
        ChatId chat = chatId();
        chats.open(chat, alice, Set.of(), "first", at());
        Optional<IdempotencyKey> key = key();
        chats.send(chat, alice, "remembered", at(), key);

        chats.leave(chat, alice);

        assertThat(store.tracesOf(chat)).as("what the store still holds of the deleted chat").isEmpty();
        chats.open(chat, alice, Set.of(), "first again", at());
        assertThat(chats.send(chat, alice, "remembered", at(), key).id())
                .as("a chat opened again under the same id knows no earlier key").isEqualTo(2);
    }

    @Test
    public void concurrent_repeats_of_one_send_store_it_once() throws Exception {
        UserId alice = user("alice");
        ChatId chat = chatId();
        chats.open(chat, alice, Set.of(), "first", at());
        Optional<IdempotencyKey> key = key();
        Instant when = at();
        int senders = 8;
        CountDownLatch start = new CountDownLatch(1);
        List<CompletableFuture<Message>> answers = new ArrayList<>();
        try (ExecutorService pool = Executors.newFixedThreadPool(senders)) {
            for (int i = 0; i < senders; i++) {
                answers.add(CompletableFuture.supplyAsync(() -> {
                    awaitQuietly(start);
                    return chats.send(chat, alice, "only once", when, key);
                }, pool));
            }
            start.countDown();
            for (CompletableFuture<Message> answer : answers) {
                assertThat(answer.get()).isEqualTo(answers.getFirst().get());
            }
        }
        assertThat(chats.read(alice, chat, 0, 10).messages()).extracting(Message::body)
                .containsExactly("first", "only once");
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
