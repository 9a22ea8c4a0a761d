package dev.pigeonhole.benchmarks.floors;

import dev.pigeonhole.domain.model.ChatId;
import dev.pigeonhole.domain.model.MillisecondClock;
import dev.pigeonhole.domain.model.UserId;
import dev.pigeonhole.domain.model.chat.Access;
import dev.pigeonhole.domain.model.chat.IdempotencyKey;
import dev.pigeonhole.domain.model.limits.RateLimit;
import dev.pigeonhole.domain.model.limits.RateLimits;
import dev.pigeonhole.domain.model.mailbox.Sender;
import dev.pigeonhole.domain.port.in.chat.FetchPending;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The operations the floors benchmark measures, each as production runs it through the adapter.
 * What an operation meets is what it meets at its usual best: a member of a chat sends to it, a
 * member with K = 100 chats reads and acknowledges one new message in each, a mailbox is read
 * while it holds a few messages.
 */
final class Workloads {

    static final String BODY = "a message of about the length people type";
    /** K: the chats of the member whose pending and acknowledgement are measured, per chat. */
    static final int CHATS = 100;
    /** How many join (or leave) one chat before the next chat takes over. */
    private static final int PER_CHAT = 500;

    /**
     * A limit that admits every send and take of a run, replays included, so each one takes the
     * admitting path: it reads and writes the bucket as any admitted take does. The Lua's
     * arithmetic is the same whatever the numbers.
     */
    static final RateLimit GENEROUS = new RateLimit(1_000_000_000, Duration.ofMillis(1_000_000_000));

    private static final UserId ALICE = UserId.of("alice");
    private static final UserId BOB = UserId.of("bob");
    private static final UserId CAROL = UserId.of("carol");
    private static final UserId OWNER = UserId.of("owner");
    private static final UserId READER = UserId.of("reader");
    private static final UserId WRITER = UserId.of("writer");
    private static final UserId RECIPIENT = UserId.of("recipient");
    private static final ChatId CHAT = ChatId.of("chat");
    /** The domain's clock, as the services read it: to the millisecond, as every store keeps time. */
    private static final InstantSource CLOCK = MillisecondClock.of(InstantSource.system());

    private Workloads() {
    }

    static List<Workload> all() {
        return List.of(
                new Defined("send", "send", 1, 1, Workloads::chatOfTwo, Workloads::noPreparation,
                        (i, adapter) -> adapter.chats().send(CHAT, ALICE, BODY, now(), Optional.empty(),
                                RateLimit.NONE),
                        Replay.asRecorded()),
                new Defined("send with an idempotency key and a rate limit", "send-keyed", 1, 1, Workloads::chatOfTwo,
                        Workloads::noPreparation,
                        (i, adapter) -> adapter.chats().send(CHAT, ALICE, BODY, now(),
                                Optional.of(IdempotencyKey.of("idem-" + i)), GENEROUS),
                        // A repeated key would take the repeat's short path: each send has a new one.
                        Replay.varying("idem-0", 1_000_000_000)),
                new Defined("open (3 members)", "open", 1, 4, (adapter, direct, operations) -> { },
                        Workloads::noPreparation,
                        (i, adapter) -> adapter.chats().open(ChatId.of("opened-" + i), ALICE, Set.of(BOB, CAROL),
                                Access.PRIVATE, BODY, now()),
                        // A chat opens once: each replay opens a new one, and lists it in the creator's index.
                        Replay.varying("opened-0", 1_000_000_000)),
                new Defined("join", "join", 1, 2, Workloads::ownedChats, Workloads::noPreparation,
                        (i, adapter) -> adapter.chats().join(ownedChat(i), OWNER, UserId.of("joiner-" + i)),
                        // A member joins once: each replay brings in a new user.
                        Replay.varying("joiner-0", 1_000_000_000)),
                new Defined("leave", "leave", 1, 2, Workloads::chatsToLeave, Workloads::noPreparation,
                        (i, adapter) -> adapter.chats().leave(ownedChat(i), UserId.of("leaver-" + i)),
                        Replay.skipped("a leave needs a member still in: the recorded one is out after the first "
                                + "call, and a random one was never in")),
                new Defined("pending, per chat (K = 100)", "pending", CHATS, CHATS, Workloads::readerInChats,
                        Workloads::noPreparation,
                        (i, adapter) -> adapter.chats().pending(READER, FetchPending.Query.DEFAULT_PER_CHAT_LIMIT),
                        Replay.asRecorded()),
                new Defined("acknowledge, per chat (K = 100)", "acknowledge", CHATS, CHATS, Workloads::readerInChats,
                        Workloads::oneMoreMessageEach,
                        (i, adapter) -> adapter.chats().acknowledge(READER, upTo(i + 2)),
                        Replay.skipped("acknowledging is forward only: a repeated line moves the cursors once, then "
                                + "takes the path that changes nothing")),
                new Defined("mailbox deliver", "deliver", 1, 1, (adapter, direct, operations) -> { },
                        Workloads::noPreparation,
                        (i, adapter) -> adapter.mailboxes().deliver(RECIPIENT, WRITER, BODY, now(),
                                Sender.CO_MEMBER),
                        Replay.asRecorded()),
                new Defined("mailbox read", "read", 1, 1, Workloads::tenDelivered, Workloads::noPreparation,
                        (i, adapter) -> adapter.mailboxes().read(RECIPIENT, 100),
                        Replay.asRecorded()),
                new Defined("mailbox acknowledge", "mailbox-ack", 1, 1, (adapter, direct, operations) -> { },
                        Workloads::oneMoreDirectMessage,
                        (i, adapter) -> adapter.mailboxes().acknowledge(RECIPIENT, i + 1),
                        Replay.skipped("acknowledging is forward only: a repeated line trims once, then takes the "
                                + "path that changes nothing")),
                new Defined("presence touch", "presence", 1, 1, (adapter, direct, operations) -> { },
                        Workloads::noPreparation,
                        (i, adapter) -> adapter.presence().touch(UserId.of("seen-" + i % 1_000), now()),
                        // The hot loop's 1 000 users, as redis-benchmark draws them.
                        Replay.varying("seen-0", 1_000)),
                new Defined("quota take", "quota", 1, 1, (adapter, direct, operations) -> { },
                        Workloads::noPreparation,
                        (i, adapter) -> adapter.quotas().take(OWNER, RateLimits.Write.SEND, GENEROUS),
                        Replay.asRecorded()));
    }

    /** A workload written out: its parts as functions, and how many calls one operation makes. */
    private record Defined(String name, String key, int chatsPerOperation, int callsPerOperation, SetUp setUp,
                           Preparation preparation, Step step, Replay replay) implements Workload {

        @Override
        public int operations(int calls) {
            return Math.max(1, calls / callsPerOperation);
        }

        @Override
        public void setUp(Adapter adapter, Direct direct, int operations) {
            setUp.setUp(adapter, direct, operations);
        }

        @Override
        public void prepare(int i, Adapter adapter, Direct direct) {
            preparation.prepare(i, adapter, direct);
        }

        @Override
        public void run(int i, Adapter adapter) {
            step.run(i, adapter);
        }
    }

    private interface SetUp {
        void setUp(Adapter adapter, Direct direct, int operations);
    }

    private interface Preparation {
        void prepare(int i, Adapter adapter, Direct direct);
    }

    private interface Step {
        void run(int i, Adapter adapter);
    }

    private static Instant now() {
        return CLOCK.instant();
    }

    private static void noPreparation(int i, Adapter adapter, Direct direct) {
    }

    /** Alice and Bob in one chat, as an open leaves them. */
    private static void chatOfTwo(Adapter adapter, Direct direct, int operations) {
        adapter.chats().open(CHAT, ALICE, Set.of(BOB), Access.PRIVATE, BODY, now());
    }

    /** Operation i's chat: the chats take PER_CHAT operations each, in turn. */
    private static ChatId ownedChat(int i) {
        return ChatId.of("owned-" + i / PER_CHAT);
    }

    /** The chats the joins go to, their owner alone in each. */
    private static void ownedChats(Adapter adapter, Direct direct, int operations) {
        for (int chat = 0; chat * PER_CHAT < operations; chat++) {
            adapter.chats().open(ownedChat(chat * PER_CHAT), OWNER, Set.of(), Access.PRIVATE, BODY, now());
        }
    }

    /** The chats the leaves come from, each leaver joined by the owner. */
    private static void chatsToLeave(Adapter adapter, Direct direct, int operations) {
        ownedChats(adapter, direct, operations);
        for (int i = 0; i < operations; i++) {
            adapter.chats().join(ownedChat(i), OWNER, UserId.of("leaver-" + i));
        }
    }

    private static ChatId readersChat(int chat) {
        return ChatId.of("read-" + chat);
    }

    /** The reader in K chats, each with the writer's first message, which the reader has not seen. */
    private static void readerInChats(Adapter adapter, Direct direct, int operations) {
        for (int chat = 0; chat < CHATS; chat++) {
            adapter.chats().open(readersChat(chat), WRITER, Set.of(READER), Access.PRIVATE, BODY, now());
        }
    }

    /** Every chat acknowledged up to {@code id}. */
    private static SortedMap<ChatId, Long> upTo(long id) {
        SortedMap<ChatId, Long> upTo = new TreeMap<>();
        for (int chat = 0; chat < CHATS; chat++) {
            upTo.put(readersChat(chat), id);
        }
        return upTo;
    }

    /**
     * A new message in each chat (id i + 2: the first came with the open), stored as a send stores
     * it, but by plain commands: the acknowledgement has something to move its cursor to.
     */
    private static void oneMoreMessageEach(int i, Adapter adapter, Direct direct) {
        List<List<String>> lines = new ArrayList<>(2 * CHATS);
        for (int chat = 0; chat < CHATS; chat++) {
            var keys = adapter.keys().chat(readersChat(chat));
            lines.add(List.of("INCR", keys.messageIds()));
            lines.add(List.of("ZADD", keys.messages(), Integer.toString(i + 2), json(i + 2)));
        }
        direct.pipelined(lines);
    }

    private static void tenDelivered(Adapter adapter, Direct direct, int operations) {
        for (int n = 0; n < 10; n++) {
            adapter.mailboxes().deliver(RECIPIENT, WRITER, BODY, now(), Sender.CO_MEMBER);
        }
    }

    /** Direct message i + 1, stored as a delivery stores it, by plain commands, for the acknowledgement to drop. */
    private static void oneMoreDirectMessage(int i, Adapter adapter, Direct direct) {
        var keys = adapter.keys().mailbox(RECIPIENT);
        direct.pipelined(List.of(List.of("INCR", keys.ids()), List.of("RPUSH", keys.messages(), json(i + 1))));
    }

    /** A message as the scripts store it: the book's JSON, its id first. */
    private static String json(long id) {
        return "{\"id\":" + id + ",\"ts\":1767225600.000,\"sender\":\"writer\",\"message\":\"" + BODY + "\"}";
    }
}
