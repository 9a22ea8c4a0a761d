package dev.pigeonhole.tck;

import dev.pigeonhole.domain.model.ChatId;
import dev.pigeonhole.domain.model.NotAMemberException;
import dev.pigeonhole.domain.model.UnknownChatException;
import dev.pigeonhole.domain.model.UserId;
import dev.pigeonhole.domain.model.chat.Access;
import dev.pigeonhole.domain.model.chat.ChatSummary;
import dev.pigeonhole.domain.model.chat.Message;
import dev.pigeonhole.domain.model.chat.PendingChat;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.LongStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.fail;

/**
 * The races Redis in Action's group chat loses (§6.5.2: a send that reads the id and writes the
 * message in two steps, a fetch that rewinds a cursor, a leave that a late acknowledge undoes, a
 * deleted chat brought back by a send or join), kept as regression tests, plus a load test.
 *
 * <p>Every race starts its workers behind one gate so that they really overlap, waits for them
 * with a time bound, and fails the test with the first worker's failure ({@link RaceWorkers}).
 * Nothing sleeps: a worker that has to wait for others yields and looks again.
 */
@Timeout(60)
public abstract class ChatRacesContract extends ChatsContractSupport {

    /** The load test's bound: a correct in-memory store needs a few seconds on two cores. */
    private static final Duration LOAD_BOUND = Duration.ofSeconds(30);

    /** The bound for one round of a small race. */
    private static final Duration ROUND_BOUND = Duration.ofSeconds(10);

    private RaceWorkers workers;

    @BeforeEach
    public void startWorkers() {
        workers = new RaceWorkers("chat-race-worker");
    }

    /** Runs before the support class closes the store, so no worker outlives it. */
    @AfterEach
    public void stopWorkers() throws InterruptedException {
        workers.close();
    }

    // ---------------------------------------------------------------- (a) load

    @Test
    public void concurrent_senders_get_unique_gap_free_ids_and_readers_receive_every_message_once()
            throws InterruptedException {
        int senderCount = 8;
        int sendsEach = 1_000;
        List<UserId> senders = users("sender", senderCount);
        List<UserId> readers = users("reader", 2);
        Set<UserId> members = new HashSet<>(senders);
        members.addAll(readers);
        ChatId chat = chatId();
        Message opening = chats.open(chat, senders.getFirst(), members, "let's go", at()).message();
        long total = 1 + (long) senderCount * sendsEach;

        List<List<Message>> sentBySender = new ArrayList<>();
        List<Map<Long, Message>> receivedByReader = new ArrayList<>();
        List<RaceWorkers.Work> work = new ArrayList<>();
        for (UserId sender : senders) {
            List<Message> sent = new ArrayList<>(sendsEach);
            sentBySender.add(sent);
            work.add(() -> {
                for (int n = 1; n <= sendsEach; n++) {
                    sent.add(chats.send(chat, sender, sender + " #" + n, at()));
                }
            });
        }
        for (UserId reader : readers) {
            Map<Long, Message> received = new HashMap<>();
            receivedByReader.add(received);
            work.add(() -> readEverything(reader, chat, total, received));
        }

        workers.together(LOAD_BOUND, work);

        Map<Long, Message> everything = new HashMap<>();
        everything.put(opening.id(), opening);
        for (List<Message> sent : sentBySender) {
            assertThat(sent).extracting(Message::id).as("one sender's ids, in the order it sent").isSorted();
            for (Message message : sent) {
                assertThat(everything.put(message.id(), message)).as("id %d handed out twice", message.id()).isNull();
            }
        }
        assertThat(everything).as("distinct ids from 1 to %d: unique and gap-free", total).hasSize((int) total);
        assertThat(Collections.min(everything.keySet())).isEqualTo(1);
        assertThat(Collections.max(everything.keySet())).isEqualTo(total);
        for (Map<Long, Message> received : receivedByReader) {
            assertThat(received).as("what a reader received, by id").isEqualTo(everything);
        }
    }

    /**
     * Fetches and acknowledges until every message up to {@code total} is in. Each batch must
     * start right after the cursor with no hole: a reader acknowledges the last id it got, so a
     * hole (a message whose id was visible before the message was) would be skipped for good.
     */
    private void readEverything(UserId reader, ChatId chat, long total, Map<Long, Message> received)
            throws InterruptedException {
        long cursor = 0;
        while (cursor < total) {
            if (Thread.interrupted()) {
                throw new InterruptedException(reader + " gave up at cursor " + cursor);
            }
            PendingChat pending = pendingIn(reader, chat, 1_000);
            assertThat(pending.gap()).isFalse();
            List<Message> batch = pending.messages();
            if (batch.isEmpty()) {
                Thread.yield();
                continue;
            }
            assertThat(ids(batch)).as("what %s got above its cursor %d", reader, cursor)
                    .isEqualTo(range(cursor + 1, cursor + batch.size()));
            for (Message message : batch) {
                Message before = received.putIfAbsent(message.id(), message);
                assertThat(before == null || before.equals(message)).as("id %d is one message", message.id())
                        .isTrue();
            }
            cursor = batch.getLast().id();
            chats.acknowledge(reader, chat, cursor);
        }
    }

    // ---------------------------------------------------------------- (b) two devices

    @Test
    public void two_devices_of_one_user_reading_at_once_never_rewind_the_cursor_nor_lose_a_message()
            throws InterruptedException {
        UserId owner = user("owner");
        List<UserId> senders = users("sender", 2);
        int sendsEach = 500;
        ChatId chat = chatId();
        chats.open(chat, senders.getFirst(), Set.of(owner, senders.get(0), senders.get(1)), "hello", at());
        long total = 1 + 2L * sendsEach;
        CountDownLatch sendersDone = new CountDownLatch(senders.size());
        CountDownLatch devicesDone = new CountDownLatch(2);
        Map<Long, Message> received = new ConcurrentHashMap<>();
        AtomicLong acknowledged = new AtomicLong();

        List<RaceWorkers.Work> work = new ArrayList<>();
        for (UserId sender : senders) {
            work.add(() -> {
                try {
                    for (int n = 1; n <= sendsEach; n++) {
                        chats.send(chat, sender, sender + " #" + n, at());
                    }
                } finally {
                    sendersDone.countDown();
                }
            });
        }
        for (int batch : new int[] {3, 40}) {
            work.add(() -> {
                try {
                    readLikeADevice(owner, chat, batch, sendersDone, acknowledged, received);
                } finally {
                    devicesDone.countDown();
                }
            });
        }
        work.add(() -> {
            long seen = 0;
            while (devicesDone.getCount() > 0) {
                long floor = acknowledged.get();
                long now = cursorOf(owner, chat);
                assertThat(now).as("the cursor, last seen at %d, after an acknowledge of %d", seen, floor)
                        .isGreaterThanOrEqualTo(Math.max(seen, floor));
                seen = now;
                Thread.yield();
            }
        });

        workers.together(LOAD_BOUND, work);

        assertThat(cursorOf(owner, chat)).isEqualTo(total);
        assertThat(new HashSet<>(received.keySet())).as("every id, received by one device or the other")
                .isEqualTo(new HashSet<>(range(1, total)));
    }

    /**
     * Fetches and acknowledges until the senders are done and nothing is unread. The two devices
     * fetch batches of different sizes, so that one often acknowledges less than the other just did.
     * {@code acknowledged} is the highest id either device's acknowledge has returned for: no fetch
     * that starts later may hand that id, or any below it, out again.
     */
    private void readLikeADevice(UserId owner, ChatId chat, int batch, CountDownLatch sendersDone,
            AtomicLong acknowledged, Map<Long, Message> received) throws InterruptedException {
        while (true) {
            if (Thread.interrupted()) {
                throw new InterruptedException("a device of " + owner + " gave up");
            }
            boolean sendingOver = sendersDone.getCount() == 0;
            long floor = acknowledged.get();
            PendingChat pending = pendingIn(owner, chat, batch);
            if (!pending.messages().isEmpty()) {
                assertThat(pending.messages().getFirst().id())
                        .as("the oldest pending message once %d was acknowledged", floor).isGreaterThan(floor);
            }
            if (pending.messages().isEmpty()) {
                if (sendingOver && pending.unread() == 0) {
                    return;
                }
                Thread.yield();
                continue;
            }
            pending.messages().forEach(message -> received.putIfAbsent(message.id(), message));
            long upTo = pending.messages().getLast().id();
            chats.acknowledge(owner, chat, upTo);
            acknowledged.accumulateAndGet(upTo, Math::max);
            assertThat(cursorOf(owner, chat)).as("the cursor right after acknowledging %d", upTo)
                    .isGreaterThanOrEqualTo(upTo);
        }
    }

    // ---------------------------------------------------------------- (c) leave against acknowledge

    @Test
    public void a_leave_racing_an_acknowledge_stays_a_leave() throws InterruptedException {
        UserId leaver = user("leaver");
        for (int round = 1; round <= 200; round++) {
            UserId stayer = user("stayer");
            ChatId chat = chatId();
            chats.open(chat, stayer, Set.of(stayer, leaver), "round " + round, at());
            Message last = chats.send(chat, stayer, "read me before you go", at());

            workers.together(ROUND_BOUND, List.of(
                    () -> chats.leave(chat, leaver),
                    () -> {
                        try {
                            chats.acknowledge(leaver, chat, last.id());
                        } catch (UnknownChatException tooLate) {
                            // the leave came first: the acknowledge must change nothing
                        }
                    }));

            String context = "round " + round;
            assertThat(chats.chatsOf(leaver)).as(context).isEmpty();
            assertThat(chats.pending(leaver, 10)).as(context).isEmpty();
            assertThat(summary(stayer, chat).members()).as(context).containsExactly(stayer);
            assertThatExceptionOfType(UnknownChatException.class).as(context)
                    .isThrownBy(() -> chats.send(chat, leaver, "still in?", at()));
        }
    }

    // ---------------------------------------------------------------- (d) last leave against send and join

    @Test
    public void the_last_member_leaving_while_others_send_and_join_never_restarts_ids_nor_leaves_traces()
            throws InterruptedException {
        for (int round = 1; round <= 100; round++) {
            UserId first = user("first");
            UserId second = user("second");
            UserId joiner = user("joiner");
            UserId outsider = user("outsider");
            ChatId chat = chatId();
            // Open to all, so the joiner comes in by itself as the book's users do.
            Message opening = chats.open(chat, first, Set.of(first, second), Access.OPEN, "round " + round, at())
                    .message();
            List<Long> ids = new CopyOnWriteArrayList<>(List.of(opening.id()));
            AtomicBoolean joined = new AtomicBoolean();

            workers.together(ROUND_BOUND, List.of(
                    () -> {
                        sendSome(chat, first, ids);
                        chats.leave(chat, first);
                    },
                    () -> {
                        sendSome(chat, second, ids);
                        chats.leave(chat, second);
                    },
                    () -> {
                        try {
                            chats.join(chat, joiner, joiner);
                        } catch (UnknownChatException deletedFirst) {
                            return;
                        }
                        joined.set(true);
                        sendSome(chat, joiner, ids);
                    },
                    () -> {
                        for (int n = 0; n < 3; n++) {
                            try {
                                Message sneaked = chats.send(chat, outsider, "let me in", at());
                                fail("an outsider sent message %s", sneaked);
                            } catch (NotAMemberException | UnknownChatException refused) {
                                // as it should be, whether or not the chat still exists
                            }
                        }
                    }));

            String context = "round " + round;
            assertThat(ids).as("every id handed out in %s", context).doesNotHaveDuplicates();
            long highest = Collections.max(ids);
            assertThat(ids).as("distinct ids from 1 up to the highest: gap-free in %s", context)
                    .hasSize((int) highest);
            assertThat(chats.chatsOf(first)).as(context).isEmpty();
            assertThat(chats.chatsOf(second)).as(context).isEmpty();
            assertThat(chats.chatsOf(outsider)).as(context).isEmpty();
            if (joined.get()) {
                ChatSummary survivor = summary(joiner, chat);
                assertThat(survivor.members()).as(context).containsExactly(joiner);
                assertThat(survivor.lastId()).as(context).isEqualTo(highest);
                assertThat(chats.send(chat, joiner, "anyone left?", at()).id()).as(context).isEqualTo(highest + 1);
            } else {
                assertThat(chats.chatsOf(joiner)).as(context).isEmpty();
                assertThat(store.tracesOf(chat)).as("what the store holds of the deleted chat, %s", context).isEmpty();
                assertThatExceptionOfType(UnknownChatException.class).as(context)
                        .isThrownBy(() -> chats.send(chat, first, "hello?", at()));
            }
        }
    }

    private void sendSome(ChatId chat, UserId sender, Collection<Long> ids) {
        for (int n = 1; n <= 3; n++) {
            ids.add(chats.send(chat, sender, sender + " #" + n, at()).id());
        }
    }

    // ---------------------------------------------------------------- (e) re-join against send

    @Test
    public void joining_again_while_others_send_skips_no_unread_message() throws InterruptedException {
        UserId member = user("member");
        List<UserId> senders = users("sender", 2);
        int sendsEach = 300;
        ChatId chat = chatId();
        chats.open(chat, senders.getFirst(), Set.of(member, senders.get(0), senders.get(1)), "hello", at());
        chats.acknowledge(member, chat, 1);

        List<RaceWorkers.Work> work = new ArrayList<>();
        for (UserId sender : senders) {
            work.add(() -> {
                for (int n = 1; n <= sendsEach; n++) {
                    chats.send(chat, sender, sender + " #" + n, at());
                }
            });
        }
        work.add(() -> {
            for (int n = 0; n < sendsEach; n++) {
                chats.join(chat, member, member);
                Thread.yield();
            }
        });

        workers.together(LOAD_BOUND, work);

        long total = 1 + 2L * sendsEach;
        assertThat(cursorOf(member, chat)).as("the cursor the member acknowledged").isEqualTo(1);
        PendingChat pending = pendingIn(member, chat, 1_000);
        assertThat(ids(pending.messages())).isEqualTo(range(2, total));
        assertThat(pending.unread()).isEqualTo(total - 1);
    }

    // ---------------------------------------------------------------- helpers

    private static List<UserId> users(String role, int count) {
        List<UserId> users = new ArrayList<>();
        for (int i = 1; i <= count; i++) {
            users.add(user(role + i));
        }
        return users;
    }

    private long cursorOf(UserId user, ChatId chat) {
        return summary(user, chat).cursor();
    }

    private static List<Long> ids(List<Message> messages) {
        return messages.stream().map(Message::id).toList();
    }

    private static List<Long> range(long from, long to) {
        return LongStream.rangeClosed(from, to).boxed().toList();
    }
}
