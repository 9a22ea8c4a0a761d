package dev.pigeonhole.tck;

import dev.pigeonhole.domain.model.DirectMessage;
import dev.pigeonhole.domain.model.Limits;
import dev.pigeonhole.domain.model.MailboxFullException;
import dev.pigeonhole.domain.model.UserId;
import dev.pigeonhole.domain.port.out.Mailboxes;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * What every {@link Mailboxes} promises (docs/DESIGN.md §3, Redis in Action 6.5.1): senders append,
 * the owner takes the oldest first, atomically, up to the mailbox's capacity.
 *
 * <p>Extend it in an adapter's tests and say how to make a fresh store. Every test uses users of
 * its own, so stores may be shared and tests may run in parallel.
 */
@Timeout(60)
public abstract class MailboxesContract {

    private static final Instant SENT_AT = Instant.parse("2026-01-01T00:00:00Z");

    private final OpenStores stores = new OpenStores();
    private Mailboxes mailboxes;

    /** A fresh store, isolated from every other one alive at the same time. */
    protected abstract StoreFixture newStore(Limits limits);

    @BeforeEach
    void openStore() {
        mailboxes = open(Limits.DEFAULTS).mailboxes();
    }

    @AfterEach
    void closeStores() {
        stores.closeAll();
    }

    @Test
    void deliver_appends_and_take_returns_the_oldest_first() {
        UserId owner = randomUser();
        List<DirectMessage> sent = messages(3);
        sent.forEach(message -> mailboxes.deliver(owner, message));

        assertThat(mailboxes.take(owner, 10)).containsExactlyElementsOf(sent);
    }

    @Test
    void deliver_reports_the_depth_it_leaves() {
        UserId owner = randomUser();
        List<DirectMessage> sent = messages(3);

        assertThat(sent.stream().map(message -> mailboxes.deliver(owner, message)).toList()).containsExactly(1, 2, 3);
        mailboxes.take(owner, 2);
        assertThat(mailboxes.deliver(owner, message("after a take"))).isEqualTo(2);
    }

    @Test
    void take_removes_what_it_returns() {
        UserId owner = randomUser();
        messages(2).forEach(message -> mailboxes.deliver(owner, message));

        mailboxes.take(owner, 10);

        assertThat(mailboxes.take(owner, 10)).isEmpty();
    }

    @Test
    void take_returns_at_most_max_and_leaves_the_rest_in_order() {
        UserId owner = randomUser();
        List<DirectMessage> sent = messages(5);
        sent.forEach(message -> mailboxes.deliver(owner, message));

        assertThat(mailboxes.take(owner, 2)).containsExactlyElementsOf(sent.subList(0, 2));
        assertThat(mailboxes.take(owner, 10)).containsExactlyElementsOf(sent.subList(2, 5));
    }

    @Test
    void take_from_an_empty_mailbox_returns_an_empty_list() {
        assertThat(mailboxes.take(randomUser(), 10)).isEmpty();
    }

    @Test
    void mailboxes_are_per_user() {
        UserId alice = randomUser();
        UserId bob = randomUser();
        DirectMessage forAlice = message("for alice");
        DirectMessage forBob = message("for bob");

        mailboxes.deliver(alice, forAlice);
        mailboxes.deliver(bob, forBob);

        assertThat(mailboxes.take(alice, 10)).containsExactly(forAlice);
        assertThat(mailboxes.take(bob, 10)).containsExactly(forBob);
    }

    @Test
    void a_full_mailbox_rejects_and_keeps_exactly_what_it_held() {
        Mailboxes small = open(Limits.DEFAULTS.withMailboxCapacity(3)).mailboxes();
        UserId owner = randomUser();
        List<DirectMessage> sent = messages(3);
        sent.forEach(message -> small.deliver(owner, message));

        assertThatThrownBy(() -> small.deliver(owner, message("one too many")))
                .isInstanceOfSatisfying(MailboxFullException.class, full -> {
                    assertThat(full.owner()).isEqualTo(owner);
                    assertThat(full.capacity()).isEqualTo(3);
                });
        assertThat(small.take(owner, 10)).containsExactlyElementsOf(sent);
    }

    @Test
    void a_full_mailbox_accepts_again_once_its_owner_takes() {
        Mailboxes small = open(Limits.DEFAULTS.withMailboxCapacity(2)).mailboxes();
        UserId owner = randomUser();
        messages(2).forEach(message -> small.deliver(owner, message));
        small.take(owner, 1);

        DirectMessage late = message("room again");
        small.deliver(owner, late);

        assertThat(small.take(owner, 10)).hasSize(2).endsWith(late);
    }

    @Test
    void concurrent_takers_share_the_messages_without_duplicates_or_losses() throws Exception {
        UserId owner = randomUser();
        int total = 2_000;
        int takers = 4;
        List<DirectMessage> sent = messages(total);
        sent.forEach(message -> mailboxes.deliver(owner, message));

        // Every take's batch, whoever took it; a start gate makes the takers really overlap.
        Collection<List<DirectMessage>> batches = new ConcurrentLinkedQueue<>();
        CountDownLatch start = new CountDownLatch(1);
        try (ExecutorService pool = Executors.newFixedThreadPool(takers)) {
            List<Future<?>> running = IntStream.range(0, takers)
                    .<Future<?>>mapToObj(taker -> pool.submit(() -> {
                        start.await();
                        List<DirectMessage> batch;
                        while (!(batch = mailboxes.take(owner, 7)).isEmpty()) {
                            batches.add(batch);
                        }
                        return null;
                    }))
                    .toList();
            start.countDown();
            for (Future<?> taker : running) {
                taker.get(30, TimeUnit.SECONDS);
            }
        }

        List<DirectMessage> received = batches.stream().flatMap(List::stream).toList();
        assertThat(received).as("every message taken exactly once").containsExactlyInAnyOrderElementsOf(sent);
        assertThat(batches).allSatisfy(batch -> {
            int first = sent.indexOf(batch.getFirst());
            assertThat(batch).as("one take is a run of consecutive messages, oldest first")
                    .containsExactlyElementsOf(sent.subList(first, first + batch.size()));
        });
    }

    private StoreFixture open(Limits limits) {
        StoreFixture store = newStore(limits);
        stores.track(store);
        return store;
    }

    private static UserId randomUser() {
        return UserId.of("user-" + UUID.randomUUID());
    }

    /** {@code count} distinct messages, each sent a millisecond after the one before. */
    private static List<DirectMessage> messages(int count) {
        return IntStream.range(0, count)
                .mapToObj(i -> new DirectMessage(SENT_AT.plusMillis(i), UserId.of("sender"), "message " + i))
                .toList();
    }

    private static DirectMessage message(String body) {
        return new DirectMessage(SENT_AT, UserId.of("sender"), body);
    }
}
