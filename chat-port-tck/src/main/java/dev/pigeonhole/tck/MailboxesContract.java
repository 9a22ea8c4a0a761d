package dev.pigeonhole.tck;

import dev.pigeonhole.domain.model.InvalidInputException;
import dev.pigeonhole.domain.model.MailboxFullException;
import dev.pigeonhole.domain.model.RateLimitedException;
import dev.pigeonhole.domain.model.UserId;
import dev.pigeonhole.domain.model.limits.Limits;
import dev.pigeonhole.domain.model.live.Channel;
import dev.pigeonhole.domain.model.live.LiveEvent;
import dev.pigeonhole.domain.model.live.Topic;
import dev.pigeonhole.domain.model.mailbox.Delivered;
import dev.pigeonhole.domain.model.mailbox.DirectMessage;
import dev.pigeonhole.domain.model.mailbox.Mailbox;
import dev.pigeonhole.domain.model.mailbox.Sender;
import dev.pigeonhole.domain.port.out.Channels;
import dev.pigeonhole.domain.port.out.Mailboxes;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import java.util.stream.LongStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * What every {@link Mailboxes} promises (docs/DESIGN.md §3, Redis in Action 6.5.1): senders
 * append under the mailbox's next id, the owner reads the oldest first without removing them and
 * acknowledges what it has, up to the mailbox's capacity; a delivery is announced to its owner.
 *
 * <p>Extend it in an adapter's tests and say how to make a fresh store. Every test uses users of
 * its own, so stores may be shared and tests may run in parallel.
 */
@Timeout(60)
public abstract class MailboxesContract {

    private static final Instant SENT_AT = Instant.parse("2026-01-01T00:00:00Z");
    private static final UserId SENDER = UserId.of("sender");

    private final OpenStores stores = new OpenStores();
    private StoreFixture store;
    private Mailboxes mailboxes;

    /** A fresh store, isolated from every other one alive at the same time. */
    protected abstract StoreFixture newStore(Limits limits);

    @BeforeEach
    void openStore() {
        store = open(Limits.DEFAULTS);
        mailboxes = store.mailboxes();
    }

    @AfterEach
    void closeStores() {
        stores.closeAll();
    }

    @Test
    void each_owners_messages_are_numbered_1_2_3_and_the_depth_counts_them() {
        UserId alice = randomUser();
        UserId bob = randomUser();

        List<Delivered> toAlice = deliver(alice, 3);
        Delivered toBob = mailboxes.deliver(bob, SENDER, "for bob", SENT_AT.plusMillis(1));

        assertThat(toAlice).extracting(delivered -> delivered.message().id()).containsExactly(1L, 2L, 3L);
        assertThat(toAlice).extracting(Delivered::depth).containsExactly(1, 2, 3);
        assertThat(toBob).as("its time read back to the millisecond")
                .isEqualTo(new Delivered(bob, new DirectMessage(1, SENT_AT.plusMillis(1), SENDER, "for bob"), 1));
        assertThat(mailboxes.read(bob, 10)).containsExactly(toBob.message());
    }

    /**
     * Bodies with control characters are refused where they enter (the commands), not by the
     * store: one kept from before that rule must still read back, and the port takes one as such.
     */
    @Test
    void a_body_kept_from_before_control_characters_were_refused_still_reads_back() {
        UserId owner = randomUser();
        Delivered old = mailboxes.deliver(owner, SENDER, "old \u0007 bell \u001B[31m", SENT_AT);

        assertThat(mailboxes.read(owner, 10)).containsExactly(old.message());
        assertThat(mailboxes.read(owner, 10).getFirst().body()).isEqualTo("old \u0007 bell \u001B[31m");
    }

    @Test
    void read_returns_the_oldest_first_up_to_max_and_removes_nothing() {
        UserId owner = randomUser();
        List<DirectMessage> sent = messagesOf(deliver(owner, 5));

        assertThat(mailboxes.read(owner, 2)).containsExactlyElementsOf(sent.subList(0, 2));
        assertThat(mailboxes.read(owner, 10)).containsExactlyElementsOf(sent);
        assertThat(mailboxes.read(randomUser(), 10)).as("a mailbox never delivered to").isEmpty();
    }

    @Test
    void acknowledge_removes_up_to_and_including_an_id_and_keeps_the_rest_in_order() {
        UserId owner = randomUser();
        List<DirectMessage> sent = messagesOf(deliver(owner, 5));

        mailboxes.acknowledge(owner, 2);

        assertThat(mailboxes.read(owner, 10)).containsExactlyElementsOf(sent.subList(2, 5));
        assertThat(mailboxes.deliver(owner, SENDER, "after", SENT_AT).depth()).isEqualTo(4);
    }

    @Test
    void acknowledging_above_the_last_id_is_refused_and_changes_nothing() {
        UserId owner = randomUser();
        List<DirectMessage> sent = messagesOf(deliver(owner, 3));

        assertThatThrownBy(() -> mailboxes.acknowledge(owner, 4))
                .isInstanceOf(InvalidInputException.class)
                .hasMessage(Mailbox.beyondLastId(owner, 4, 3).getMessage());
        assertThat(mailboxes.read(owner, 10)).containsExactlyElementsOf(sent);

        UserId newcomer = randomUser();
        assertThatThrownBy(() -> mailboxes.acknowledge(newcomer, 1))
                .hasMessage(Mailbox.beyondLastId(newcomer, 1, 0).getMessage());
        mailboxes.acknowledge(newcomer, 0);
        assertThat(mailboxes.deliver(newcomer, SENDER, "first", SENT_AT).message().id()).isEqualTo(1);
    }

    @Test
    void acknowledging_again_or_an_older_id_is_harmless() {
        UserId owner = randomUser();
        List<DirectMessage> sent = messagesOf(deliver(owner, 4));
        mailboxes.acknowledge(owner, 3);

        mailboxes.acknowledge(owner, 3);
        mailboxes.acknowledge(owner, 1);
        mailboxes.acknowledge(owner, 0);

        assertThat(mailboxes.read(owner, 10)).containsExactly(sent.get(3));
    }

    @Test
    void ids_keep_growing_after_the_mailbox_empties() {
        UserId owner = randomUser();
        deliver(owner, 2);
        mailboxes.acknowledge(owner, 2);
        assertThat(mailboxes.read(owner, 10)).isEmpty();

        Delivered next = mailboxes.deliver(owner, SENDER, "again", SENT_AT);

        assertThat(next.message().id()).isEqualTo(3);
        assertThat(next.depth()).isEqualTo(1);
        assertThatThrownBy(() -> mailboxes.acknowledge(owner, 4)).isInstanceOf(InvalidInputException.class);
    }

    @Test
    void a_full_mailbox_rejects_without_taking_an_id_and_reading_and_acknowledging_makes_room() {
        Mailboxes small = open(Limits.DEFAULTS.withMailboxCapacity(3)).mailboxes();
        UserId owner = randomUser();
        List<DirectMessage> sent = new ArrayList<>();
        IntStream.range(0, 3).forEach(i -> sent.add(small.deliver(owner, SENDER, "message " + i, SENT_AT).message()));

        assertThatThrownBy(() -> small.deliver(owner, SENDER, "one too many", SENT_AT))
                .isInstanceOfSatisfying(MailboxFullException.class, full -> {
                    assertThat(full.owner()).isEqualTo(owner);
                    assertThat(full.capacity()).isEqualTo(3);
                });
        assertThat(small.read(owner, 10)).containsExactlyElementsOf(sent);

        small.acknowledge(owner, small.read(owner, 1).getLast().id());
        DirectMessage late = small.deliver(owner, SENDER, "room again", SENT_AT).message();

        assertThat(late.id()).as("the refused delivery took no id").isEqualTo(4);
        assertThat(small.read(owner, 10)).containsExactly(sent.get(1), sent.get(2), late);
    }

    @Test
    void strangers_hold_at_most_a_tenth_of_a_mailbox_and_acknowledging_frees_their_share() {
        Mailboxes small = open(Limits.DEFAULTS.withMailboxCapacity(20)).mailboxes();
        UserId owner = randomUser();
        UserId stranger = randomUser();
        DirectMessage first = small.deliver(owner, stranger, "one", SENT_AT, Sender.STRANGER).message();
        small.deliver(owner, randomUser(), "two", SENT_AT, Sender.STRANGER);

        assertThatThrownBy(() -> small.deliver(owner, stranger, "three", SENT_AT, Sender.STRANGER))
                .isInstanceOf(RateLimitedException.class)
                .hasMessage(Mailbox.strangerRefused(20).getMessage());
        DirectMessage friends = small.deliver(owner, SENDER, "a friend still gets through", SENT_AT).message();
        assertThat(friends.id()).as("the refused delivery took no id").isEqualTo(3);

        small.acknowledge(owner, first.id());

        assertThat(small.deliver(owner, stranger, "room again", SENT_AT, Sender.STRANGER).message().id()).isEqualTo(4);
        assertThatThrownBy(() -> small.deliver(owner, stranger, "and no more", SENT_AT, Sender.STRANGER))
                .isInstanceOf(RateLimitedException.class);
    }

    @Test
    void a_full_mailbox_refuses_a_stranger_as_its_share_does_so_fullness_is_not_revealed() {
        Mailboxes small = open(Limits.DEFAULTS.withMailboxCapacity(3)).mailboxes();
        UserId owner = randomUser();
        IntStream.range(0, 3).forEach(i -> small.deliver(owner, SENDER, "message " + i, SENT_AT));

        assertThatThrownBy(() -> small.deliver(owner, randomUser(), "let me in", SENT_AT, Sender.STRANGER))
                .isInstanceOf(RateLimitedException.class)
                .hasMessage(Mailbox.strangerRefused(3).getMessage());
        assertThatThrownBy(() -> small.deliver(owner, SENDER, "and me", SENT_AT, Sender.CO_MEMBER))
                .isInstanceOf(MailboxFullException.class);
        assertThat(small.read(owner, 10)).hasSize(3);
    }

    @Test
    void order_is_kept_across_many_deliveries() {
        UserId owner = randomUser();
        List<DirectMessage> sent = messagesOf(deliver(owner, 1_500));

        List<DirectMessage> received = new ArrayList<>();
        for (List<DirectMessage> page = mailboxes.read(owner, 400); !page.isEmpty(); page = mailboxes.read(owner, 400)) {
            received.addAll(page);
            mailboxes.acknowledge(owner, page.getLast().id());
        }

        assertThat(received).containsExactlyElementsOf(sent);
    }

    @Test
    void two_devices_reading_and_acknowledging_at_once_lose_nothing_and_see_nothing_twice() throws Exception {
        UserId owner = randomUser();
        int total = 600;
        // One device's view, in the order it saw it; a start gate makes the devices and the sender overlap.
        List<List<Long>> seen = List.of(new CopyOnWriteArrayList<>(), new CopyOnWriteArrayList<>());
        CountDownLatch start = new CountDownLatch(1);
        try (ExecutorService pool = Executors.newFixedThreadPool(3)) {
            Future<?> sender = pool.submit(() -> {
                start.await();
                deliver(owner, total);
                return null;
            });
            List<Future<?>> devices = seen.stream().<Future<?>>map(view -> pool.submit(() -> {
                start.await();
                // Read a page, then acknowledge it, until a read after the last delivery finds nothing.
                while (true) {
                    boolean allSent = sender.isDone();
                    List<DirectMessage> page = mailboxes.read(owner, 25);
                    if (page.isEmpty() && allSent) {
                        return null;
                    }
                    page.forEach(message -> view.add(message.id()));
                    if (!page.isEmpty()) {
                        mailboxes.acknowledge(owner, page.getLast().id());
                    }
                }
            })).toList();
            start.countDown();
            sender.get(30, TimeUnit.SECONDS);
            for (Future<?> device : devices) {
                device.get(30, TimeUnit.SECONDS);
            }
        }

        seen.forEach(view -> assertThat(view).as("one device sees each message once, in order").isSorted()
                .doesNotHaveDuplicates());
        List<Long> everything = seen.stream().flatMap(List::stream).distinct().sorted().toList();
        assertThat(everything).as("every message reached a device")
                .containsExactlyElementsOf(LongStream.rangeClosed(1, total).boxed().toList());
        assertThat(mailboxes.read(owner, 10)).isEmpty();
    }

    @Test
    void two_devices_reading_at_once_both_get_the_same_messages() throws Exception {
        UserId owner = randomUser();
        List<DirectMessage> sent = messagesOf(deliver(owner, 5));
        CountDownLatch start = new CountDownLatch(1);
        try (ExecutorService pool = Executors.newFixedThreadPool(2)) {
            List<Future<List<DirectMessage>>> reads = IntStream.range(0, 2).mapToObj(device -> pool.submit(() -> {
                start.await();
                return mailboxes.read(owner, 10);
            })).toList();
            start.countDown();
            for (Future<List<DirectMessage>> read : reads) {
                assertThat(read.get(30, TimeUnit.SECONDS)).containsExactlyElementsOf(sent);
            }
        }
    }

    @Test
    void a_delivery_is_announced_on_its_owners_channel_alone() throws InterruptedException {
        UserId alice = randomUser();
        UserId bob = randomUser();
        Map<Channel, List<LiveEvent>> heard = new ConcurrentHashMap<>();
        UserId marker = UserId.of("end-of-deliveries");
        CountDownLatch markers = new CountDownLatch(2);
        try (Channels.Connection connection = store.channels().connect(new Channels.Receiver() {
            @Override
            public void onEvent(Topic via, Channel channel, LiveEvent event) {
                if (event instanceof LiveEvent.PresenceChanged end && end.user().equals(marker)) {
                    markers.countDown();
                } else {
                    heard.computeIfAbsent(channel, any -> new CopyOnWriteArrayList<>()).add(event);
                }
            }

            @Override
            public void onResubscribed() {
            }
        })) {
            List<Channel> channels = List.of(Channel.ofUser(alice), Channel.ofUser(bob));
            channels.forEach(connection::subscribe);
            Delivered toAlice = mailboxes.deliver(alice, SENDER, "for alice", SENT_AT);
            Delivered toBob = mailboxes.deliver(bob, SENDER, "for bob", SENT_AT);

            // A channel delivers in publish order: once its marker is in, so is everything before it.
            channels.forEach(channel -> store.channels().publish(channel,
                    new LiveEvent.PresenceChanged(marker, true, Instant.EPOCH)));
            assertThat(markers.await(20, TimeUnit.SECONDS)).as("both channels delivered their marker").isTrue();
            assertThat(heard).isEqualTo(Map.of(
                    Channel.ofUser(alice), List.of(new LiveEvent.DirectMessageDelivered(alice, toAlice.message())),
                    Channel.ofUser(bob), List.of(new LiveEvent.DirectMessageDelivered(bob, toBob.message()))));
        }
    }

    private StoreFixture open(Limits limits) {
        return stores.track(newStore(limits));
    }

    /** {@code count} distinct messages to {@code owner}, each sent a millisecond after the one before. */
    private List<Delivered> deliver(UserId owner, int count) {
        return IntStream.range(0, count)
                .mapToObj(i -> mailboxes.deliver(owner, SENDER, "message " + i, SENT_AT.plusMillis(i)))
                .toList();
    }

    private static List<DirectMessage> messagesOf(List<Delivered> deliveries) {
        return deliveries.stream().map(Delivered::message).toList();
    }

    private static UserId randomUser() {
        return UserId.of("user-" + UUID.randomUUID());
    }
}
