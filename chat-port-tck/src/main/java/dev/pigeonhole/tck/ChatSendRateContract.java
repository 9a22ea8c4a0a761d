package dev.pigeonhole.tck;

import dev.pigeonhole.domain.model.ChatId;
import dev.pigeonhole.domain.model.RateLimitedException;
import dev.pigeonhole.domain.model.UnknownChatException;
import dev.pigeonhole.domain.model.UserId;
import dev.pigeonhole.domain.model.chat.IdempotencyKey;
import dev.pigeonhole.domain.model.chat.Message;
import dev.pigeonhole.domain.model.limits.RateLimit;
import dev.pigeonhole.domain.model.limits.RateLimits;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * A send's rate limit: the sender's bucket in one chat, taken in the send's own atomic step at
 * the send's time. A refused send stores, announces and moves nothing; a repeat under a key takes
 * no token, so a client retrying a send is never refused for retrying.
 */
public abstract class ChatSendRateContract extends ChatsContractSupport {

    /** Three sends, then one every twenty minutes. */
    private static final RateLimit THREE_AN_HOUR = new RateLimit(3, Duration.ofHours(1));

    @Test
    public void a_sender_sends_its_burst_and_is_then_refused_with_nothing_stored() {
        UserId alice = user("alice");
        ChatId chat = chatId();
        chats.open(chat, alice, Set.of(), "first", at());
        for (int send = 1; send <= 3; send++) {
            chats.send(chat, alice, "ok " + send, at(), Optional.empty(), THREE_AN_HOUR);
        }

        RateLimitedException refused = catchThrowableOfType(RateLimitedException.class,
                () -> chats.send(chat, alice, "one too many", at(), Optional.empty(), THREE_AN_HOUR));

        assertThat(refused).isNotNull();
        assertThat(refused.write()).isEqualTo(RateLimits.Write.SEND.word());
        assertThat(refused.retryAfter()).isPositive().isLessThanOrEqualTo(Duration.ofMinutes(20));
        assertThat(chats.read(alice, chat, 0, 10).lastId()).as("nothing stored").isEqualTo(4);
        assertThat(summary(alice, chat).cursor()).isEqualTo(4);
    }

    @Test
    public void the_bucket_refills_by_the_time_of_the_sends() {
        UserId alice = user("alice");
        ChatId chat = chatId();
        Instant now = at();
        chats.open(chat, alice, Set.of(), "first", now);
        for (int send = 1; send <= 3; send++) {
            chats.send(chat, alice, "ok " + send, now, Optional.empty(), THREE_AN_HOUR);
        }
        assertThatExceptionOfType(RateLimitedException.class).isThrownBy(() ->
                chats.send(chat, alice, "too soon", now.plus(Duration.ofMinutes(19)), Optional.empty(), THREE_AN_HOUR));

        Message later = chats.send(chat, alice, "in time", now.plus(Duration.ofMinutes(20)), Optional.empty(),
                THREE_AN_HOUR);

        assertThat(later.id()).isEqualTo(5);
    }

    @Test
    public void each_sender_has_a_bucket_in_each_chat() {
        UserId alice = user("alice");
        UserId bob = user("bob");
        ChatId one = chatId();
        ChatId two = chatId();
        Instant now = at();
        chats.open(one, alice, Set.of(bob), "first", now);
        chats.open(two, alice, Set.of(), "first", now);
        for (int send = 1; send <= 3; send++) {
            chats.send(one, alice, "ok " + send, now, Optional.empty(), THREE_AN_HOUR);
        }

        assertThat(chats.send(one, bob, "bob's turn", now, Optional.empty(), THREE_AN_HOUR).id()).isEqualTo(5);
        assertThat(chats.send(two, alice, "elsewhere", now, Optional.empty(), THREE_AN_HOUR).id()).isEqualTo(2);
    }

    @Test
    public void a_repeat_under_its_key_takes_no_token() {
        UserId alice = user("alice");
        ChatId chat = chatId();
        Instant now = at();
        chats.open(chat, alice, Set.of(), "first", now);
        Optional<IdempotencyKey> key = Optional.of(IdempotencyKey.of("retried"));
        Message sent = chats.send(chat, alice, "keyed", now, key, THREE_AN_HOUR);
        chats.send(chat, alice, "two", now, Optional.empty(), THREE_AN_HOUR);
        chats.send(chat, alice, "three", now, Optional.empty(), THREE_AN_HOUR);

        assertThat(chats.send(chat, alice, "keyed", now, key, THREE_AN_HOUR)).isEqualTo(sent);
    }

    @Test
    public void a_stranger_is_refused_as_a_stranger_before_any_bucket() {
        UserId alice = user("alice");
        UserId mallory = user("mallory");
        ChatId chat = chatId();
        chats.open(chat, alice, Set.of(), "first", at());

        for (int send = 0; send < 5; send++) {
            assertThatExceptionOfType(UnknownChatException.class).isThrownBy(() ->
                    chats.send(chat, mallory, "let me in", at(), Optional.empty(), THREE_AN_HOUR));
        }
    }

    @Test
    public void eight_senders_at_once_never_send_more_than_the_burst() throws Exception {
        UserId alice = user("alice");
        ChatId chat = chatId();
        Instant now = at();
        chats.open(chat, alice, Set.of(), "first", now);
        RateLimit fiveAnHour = new RateLimit(5, Duration.ofHours(1));
        CountDownLatch start = new CountDownLatch(1);
        List<Future<Integer>> sent = new ArrayList<>();
        try (ExecutorService pool = Executors.newFixedThreadPool(8)) {
            for (int sender = 0; sender < 8; sender++) {
                int thread = sender;
                sent.add(pool.submit(() -> {
                    start.await();
                    int stored = 0;
                    for (int send = 0; send < 5; send++) {
                        try {
                            chats.send(chat, alice, "from " + thread, now, Optional.empty(), fiveAnHour);
                            stored++;
                        } catch (RateLimitedException refused) {
                            // what most of the forty sends get
                        }
                    }
                    return stored;
                }));
            }
            start.countDown();
            int stored = 0;
            for (Future<Integer> sender : sent) {
                stored += sender.get();
            }
            assertThat(stored).as("forty sends against a bucket of five").isEqualTo(5);
        }
        assertThat(chats.read(alice, chat, 0, 100).lastId()).isEqualTo(6);
    }
}
