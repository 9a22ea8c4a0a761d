package dev.pigeonhole.tck;

import dev.pigeonhole.domain.model.ChatId;
import dev.pigeonhole.domain.model.UserId;
import dev.pigeonhole.domain.model.chat.ChatSummary;
import dev.pigeonhole.domain.model.chat.PendingChat;
import dev.pigeonhole.domain.model.limits.Limits;
import dev.pigeonhole.domain.model.live.Channel;
import dev.pigeonhole.domain.model.live.LiveEvent;
import dev.pigeonhole.domain.model.live.Topic;
import dev.pigeonhole.domain.port.out.Channels;
import dev.pigeonhole.domain.port.out.Chats;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Timeout;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What every {@link Chats} contract class shares: a fresh store per test, closed afterwards, and
 * helpers that make fresh ids, distinct times and readable lookups.
 *
 * <p>An adapter's tests extend the contract classes, not this one, and say how to make a store.
 * Every test uses fresh random user and chat ids, so a store shared with other tests (a Redis
 * with a key prefix) never needs a flush.
 */
@Timeout(60)
public abstract class ChatsContractSupport {

    private static final Instant START = Instant.parse("2026-11-21T10:00:00Z");

    private final OpenStores stores = new OpenStores();
    private final AtomicLong ticks = new AtomicLong();

    /** The store of the current test, with {@link Limits#DEFAULTS}. */
    protected StoreFixture store;
    protected Chats chats;

    /** A fresh store, isolated from every other store alive, with the given limits. */
    protected abstract StoreFixture newStore(Limits limits);

    @BeforeEach
    public void openStore() {
        store = storeWith(Limits.DEFAULTS);
        chats = store.chats();
    }

    @AfterEach
    public void closeStores() {
        stores.closeAll();
    }

    // ---------------------------------------------------------------- helpers

    protected StoreFixture storeWith(Limits limits) {
        return stores.track(newStore(limits));
    }

    /** A user id no other test uses; {@code name} only makes failures readable. */
    protected static UserId user(String name) {
        return UserId.of(name + "-" + UUID.randomUUID());
    }

    protected static ChatId chatId() {
        return ChatId.of("chat-" + UUID.randomUUID());
    }

    /** A distinct, increasing time for each message, in whole milliseconds as every store keeps them. */
    protected Instant at() {
        return START.plusMillis(ticks.incrementAndGet());
    }

    /** The user's line for the chat in its chat list; fails if the chat is not listed. */
    protected ChatSummary summary(UserId user, ChatId chat) {
        Optional<ChatSummary> found = chats.chatsOf(user).stream().filter(s -> s.chat().equals(chat)).findFirst();
        assertThat(found).as("chat %s in the chat list of %s", chat, user).isPresent();
        return found.orElseThrow();
    }

    /** The user's pending messages in one chat; fails if the chat is not among them. */
    protected PendingChat pendingIn(UserId user, ChatId chat) {
        return pendingIn(user, chat, 1_000);
    }

    /** The same, at most {@code perChatLimit} messages of each chat. */
    protected PendingChat pendingIn(UserId user, ChatId chat, int perChatLimit) {
        Optional<PendingChat> found = chats.pending(user, perChatLimit).stream()
                .filter(p -> p.chat().equals(chat)).findFirst();
        assertThat(found).as("chat %s in the pending messages of %s", chat, user).isPresent();
        return found.orElseThrow();
    }

    /** A receiver that keeps the messages posted on {@code channel} and counts them down. */
    protected static Channels.Receiver postsOn(Channel channel, List<LiveEvent> heard, CountDownLatch announced) {
        return new Channels.Receiver() {
            @Override
            public void onEvent(Topic via, Channel on, LiveEvent event) {
                if (on.equals(channel) && event instanceof LiveEvent.MessagePosted) {
                    heard.add(event);
                    announced.countDown();
                }
            }

            @Override
            public void onResubscribed() {
            }
        };
    }
}
