package dev.pigeonhole.tck;

import dev.pigeonhole.domain.model.ChatAlreadyExistsException;
import dev.pigeonhole.domain.model.ChatFullException;
import dev.pigeonhole.domain.model.ChatId;
import dev.pigeonhole.domain.model.ChatSummary;
import dev.pigeonhole.domain.model.DirectMessage;
import dev.pigeonhole.domain.model.DomainException;
import dev.pigeonhole.domain.model.InvalidInputException;
import dev.pigeonhole.domain.model.Limits;
import dev.pigeonhole.domain.model.MailboxFullException;
import dev.pigeonhole.domain.model.Message;
import dev.pigeonhole.domain.model.NotAMemberException;
import dev.pigeonhole.domain.model.PendingChat;
import dev.pigeonhole.domain.model.UnknownChatException;
import dev.pigeonhole.domain.model.UserId;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;

import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import java.util.function.Supplier;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A store and a tiny reference model, written here with plain maps, receive the same random
 * sequence of operations; every answer must agree: returned messages, rejections by type,
 * pending messages with their unread counts and gaps, chat lists, and mailbox contents.
 *
 * <p>Four users and three chats are enough to make chats collide, fill up, empty and come back.
 * The limits are tiny for the same reason: a chat holds three members and keeps four messages,
 * a mailbox holds three. Each try names its users and chats with a fresh random prefix and gets
 * its own store, so tries share nothing.
 *
 * <p>Where the contract leaves a choice open, the model accepts every reasonable answer and says
 * so (see {@link Model#acknowledge} and {@link Model#open}).
 */
public abstract class ChatsModelContract {

    private static final int USERS = 4;
    private static final int CHATS = 3;
    private static final Limits LIMITS = Limits.DEFAULTS.withMaxMembers(3).withMaxRetained(4).withMailboxCapacity(3);
    private static final Instant START = Instant.parse("2026-11-21T10:00:00Z");

    /** A fresh store, isolated from every other store alive, with the given limits. */
    protected abstract StoreFixture newStore(Limits limits);

    @Property(tries = 100)
    public void the_store_answers_every_operation_as_the_model_does(@ForAll("scenarios") List<Operation> operations) {
        Names names = Names.fresh();
        Model model = new Model(LIMITS);
        try (StoreFixture store = newStore(LIMITS)) {
            for (int step = 0; step < operations.size(); step++) {
                Operation operation = operations.get(step);
                String context = "step " + step + ": " + operation;
                apply(operation, step, store, model, names, context);
                for (int user = 0; user < USERS; user++) {
                    UserId id = names.user(user);
                    assertThat(store.chats().chatsOf(id)).as("chats of user %d after %s", user, context)
                            .isEqualTo(model.chatsOf(id));
                }
            }
            for (int user = 0; user < USERS; user++) {
                comparePending(store, model, names.user(user), 100, "in the end, user " + user);
            }
        }
    }

    private void apply(Operation operation, int step, StoreFixture store, Model model, Names names, String context) {
        Instant at = START.plusMillis(step);
        String body = "message of step " + step;
        switch (operation) {
            case Create create -> {
                ChatId chat = names.chat(create.chat());
                UserId creator = names.user(create.creator());
                Set<UserId> listed = new TreeSet<>();
                for (int user = 0; user < USERS; user++) {
                    if ((create.others() & (1 << user)) != 0) {
                        listed.add(names.user(user));
                    }
                }
                check(context, model.open(chat, creator, listed, body, at),
                        Outcome.of(() -> store.chats().open(chat, creator, listed, body, at)));
            }
            case Send send -> {
                ChatId chat = names.chat(send.chat());
                UserId sender = names.user(send.sender());
                check(context, model.send(chat, sender, body, at),
                        Outcome.of(() -> store.chats().send(chat, sender, body, at)));
            }
            case Join join -> {
                ChatId chat = names.chat(join.chat());
                UserId user = names.user(join.user());
                check(context, model.join(chat, user), Outcome.ofVoid(() -> store.chats().join(chat, user)));
            }
            case Leave leave -> {
                ChatId chat = names.chat(leave.chat());
                UserId user = names.user(leave.user());
                check(context, model.leave(chat, user), Outcome.ofVoid(() -> store.chats().leave(chat, user)));
            }
            case Acknowledge acknowledge -> {
                ChatId chat = names.chat(acknowledge.chat());
                UserId user = names.user(acknowledge.user());
                long upTo = switch (acknowledge.upTo()) {
                    case Acknowledge.LAST -> model.lastId(chat);
                    case Acknowledge.BEYOND -> model.lastId(chat) + 1;
                    default -> acknowledge.upTo();
                };
                check(context + " (upTo " + upTo + ")", model.acknowledge(user, chat, upTo),
                        Outcome.ofVoid(() -> store.chats().acknowledge(user, chat, upTo)));
            }
            case Pending pending ->
                    comparePending(store, model, names.user(pending.user()), pending.perChatLimit(), context);
            case Deliver deliver -> {
                UserId recipient = names.user(deliver.recipient());
                DirectMessage message = new DirectMessage(at, names.user(deliver.sender()), body);
                check(context, model.deliver(recipient, message),
                        Outcome.ofVoid(() -> store.mailboxes().deliver(recipient, message)));
            }
            case Take take -> {
                UserId owner = names.user(take.owner());
                check(context, model.take(owner, take.max()),
                        Outcome.of(() -> store.mailboxes().take(owner, take.max())));
            }
        }
    }

    /**
     * Pending messages are compared chat by chat, and must come in chat id order. The first
     * available id is exact when there is a gap. Without one it depends on when the store trims
     * what every member has acknowledged, which the contract leaves open, so it only has to lie
     * between what retention must have dropped and what some member still needs.
     */
    private static void comparePending(StoreFixture store, Model model, UserId user, int perChatLimit, String context) {
        List<PendingChat> actual = store.chats().pending(user, perChatLimit);
        assertThat(actual).extracting(PendingChat::chat).as("pending of %s in chat id order, %s", user, context)
                .isSorted();
        Map<ChatId, PendingView> byChat = new TreeMap<>();
        for (PendingChat chat : actual) {
            assertThat(byChat.put(chat.chat(), PendingView.of(chat))).as("%s listed twice, %s", chat.chat(), context)
                    .isNull();
        }
        assertThat(byChat).as("pending of %s (limit %d) after %s", user, perChatLimit, context)
                .isEqualTo(model.pending(user, perChatLimit));
        for (PendingChat chat : actual) {
            assertThat(chat.firstAvailableId()).as("first available id of %s for %s, %s", chat.chat(), user, context)
                    .isBetween(model.retentionFloor(chat.chat()), model.stillNeededFrom(chat.chat()));
        }
    }

    private static void check(String context, Expected expected, Outcome actual) {
        assertThat(expected.allows(actual)).as("after %s%n expected %s%n but the store answered %s",
                context, expected, actual).isTrue();
    }

    // ---------------------------------------------------------------- operations

    /** One call on the store, over indices into the pools of users and chats. */
    public sealed interface Operation {
    }

    /**
     * Opens chat {@code chat} with the users in {@code others}, a bit set over the user pool that
     * may or may not include the creator (who is a member either way).
     */
    public record Create(int creator, int others, int chat) implements Operation {
    }

    public record Send(int sender, int chat) implements Operation {
    }

    public record Join(int user, int chat) implements Operation {
    }

    public record Leave(int user, int chat) implements Operation {
    }

    public record Pending(int user, int perChatLimit) implements Operation {
    }

    /** {@code upTo} is an id, or {@link #LAST} for the chat's last id, or {@link #BEYOND} for one past it. */
    public record Acknowledge(int user, int chat, int upTo) implements Operation {
        static final int LAST = -1;
        static final int BEYOND = -2;
    }

    public record Deliver(int sender, int recipient) implements Operation {
    }

    public record Take(int owner, int max) implements Operation {
    }

    @Provide
    public Arbitrary<List<Operation>> scenarios() {
        Arbitrary<Integer> user = Arbitraries.integers().between(0, USERS - 1);
        Arbitrary<Integer> chat = Arbitraries.integers().between(0, CHATS - 1);
        Arbitrary<Operation> create = Combinators.combine(user, Arbitraries.integers().between(0, (1 << USERS) - 1), chat)
                .as(Create::new);
        Arbitrary<Operation> send = Combinators.combine(user, chat).as(Send::new);
        Arbitrary<Operation> join = Combinators.combine(user, chat).as(Join::new);
        Arbitrary<Operation> leave = Combinators.combine(user, chat).as(Leave::new);
        Arbitrary<Operation> pending = Combinators.combine(user, Arbitraries.integers().between(1, 3)).as(Pending::new);
        Arbitrary<Operation> acknowledge = Combinators.combine(user, chat,
                Arbitraries.integers().between(Acknowledge.BEYOND, 8)).as(Acknowledge::new);
        Arbitrary<Operation> deliver = Combinators.combine(user, user).as(Deliver::new);
        Arbitrary<Operation> take = Combinators.combine(user, Arbitraries.integers().between(1, 3)).as(Take::new);
        return Arbitraries.frequencyOf(
                        Tuple.of(3, create),
                        Tuple.of(8, send),
                        Tuple.of(2, join),
                        Tuple.of(2, leave),
                        Tuple.of(3, pending),
                        Tuple.of(4, acknowledge),
                        Tuple.of(2, deliver),
                        Tuple.of(2, take))
                .list().ofMinSize(10).ofMaxSize(60);
    }

    // ---------------------------------------------------------------- answers

    /** What a call on the store came to: a value (null for a void call), or the type of its rejection. */
    private record Outcome(Object value, Class<? extends DomainException> rejection) {

        static Outcome of(Supplier<?> call) {
            try {
                return new Outcome(call.get(), null);
            } catch (DomainException e) {
                return new Outcome(null, e.getClass());
            }
        }

        static Outcome ofVoid(Runnable call) {
            return of(() -> {
                call.run();
                return null;
            });
        }
    }

    /** What the model allows: exactly this value, or else any one of these rejections. */
    private record Expected(Object value, Set<Class<? extends DomainException>> rejections) {

        static Expected value(Object value) {
            return new Expected(value, Set.of());
        }

        static Expected done() {
            return value(null);
        }

        static Expected rejected(Class<? extends DomainException> rejection) {
            return new Expected(null, Set.of(rejection));
        }

        static Expected rejected(Class<? extends DomainException> one, Class<? extends DomainException> other) {
            return new Expected(null, Set.of(one, other));
        }

        boolean allows(Outcome outcome) {
            return rejections.isEmpty()
                    ? outcome.rejection() == null && Objects.equals(value, outcome.value())
                    : rejections.contains(outcome.rejection());
        }
    }

    /** A pending chat without its chat id, and with the first available id only when it matters. */
    private record PendingView(List<Message> messages, long unread, boolean gap, long firstAvailableIdOfGap) {

        static PendingView of(PendingChat chat) {
            return new PendingView(chat.messages(), chat.unread(), chat.gap(), chat.gap() ? chat.firstAvailableId() : 0);
        }
    }

    /** Pool index to id, under a prefix of its own for each try. */
    private record Names(String prefix) {

        static Names fresh() {
            return new Names("t" + UUID.randomUUID().toString().replace("-", ""));
        }

        UserId user(int index) {
            return UserId.of(prefix + "-u" + index);
        }

        ChatId chat(int index) {
            return ChatId.of(prefix + "-c" + index);
        }
    }

    // ---------------------------------------------------------------- the reference model

    /**
     * DESIGN.md §3 in as few lines as possible. It keeps every message ever sent and works out what
     * retention would have dropped when asked; what members have all acknowledged it never drops,
     * because nobody can see those messages through pending anyway.
     */
    private static final class Model {

        private final Limits limits;
        private final Map<ChatId, ChatState> chats = new HashMap<>();
        private final Map<UserId, Deque<DirectMessage>> mailboxes = new HashMap<>();

        Model(Limits limits) {
            this.limits = limits;
        }

        private static final class ChatState {
            final Map<UserId, Long> cursors = new HashMap<>();
            final List<Message> messages = new ArrayList<>();

            long lastId() {
                return messages.size();
            }
        }

        /** An existing chat with too many members may be refused for either reason. */
        Expected open(ChatId chat, UserId creator, Set<UserId> listed, String body, Instant at) {
            Set<UserId> members = new TreeSet<>(listed);
            members.add(creator);
            boolean exists = chats.containsKey(chat);
            boolean tooMany = members.size() > limits.maxMembers();
            if (exists && tooMany) {
                return Expected.rejected(ChatAlreadyExistsException.class, ChatFullException.class);
            }
            if (exists) {
                return Expected.rejected(ChatAlreadyExistsException.class);
            }
            if (tooMany) {
                return Expected.rejected(ChatFullException.class);
            }
            ChatState state = new ChatState();
            members.forEach(member -> state.cursors.put(member, 0L));
            chats.put(chat, state);
            return send(chat, creator, body, at);
        }

        Expected send(ChatId chat, UserId sender, String body, Instant at) {
            ChatState state = chats.get(chat);
            if (state == null) {
                return Expected.rejected(UnknownChatException.class);
            }
            if (!state.cursors.containsKey(sender)) {
                return Expected.rejected(NotAMemberException.class);
            }
            Message message = new Message(state.lastId() + 1, at, sender, body);
            state.messages.add(message);
            if (state.cursors.get(sender) == message.id() - 1) {
                state.cursors.put(sender, message.id());
            }
            return Expected.value(message);
        }

        Expected join(ChatId chat, UserId user) {
            ChatState state = chats.get(chat);
            if (state == null) {
                return Expected.rejected(UnknownChatException.class);
            }
            if (state.cursors.containsKey(user)) {
                return Expected.done();
            }
            if (state.cursors.size() >= limits.maxMembers()) {
                return Expected.rejected(ChatFullException.class);
            }
            state.cursors.put(user, state.lastId());
            return Expected.done();
        }

        Expected leave(ChatId chat, UserId user) {
            ChatState state = chats.get(chat);
            if (state == null) {
                return Expected.rejected(UnknownChatException.class);
            }
            if (state.cursors.remove(user) == null) {
                return Expected.rejected(NotAMemberException.class);
            }
            if (state.cursors.isEmpty()) {
                chats.remove(chat);
            }
            return Expected.done();
        }

        /** A non-member acknowledging beyond the last id may be refused for either reason. */
        Expected acknowledge(UserId user, ChatId chat, long upTo) {
            ChatState state = chats.get(chat);
            if (state == null) {
                return Expected.rejected(UnknownChatException.class);
            }
            boolean member = state.cursors.containsKey(user);
            boolean beyond = upTo > state.lastId();
            if (!member && beyond) {
                return Expected.rejected(NotAMemberException.class, InvalidInputException.class);
            }
            if (!member) {
                return Expected.rejected(NotAMemberException.class);
            }
            if (beyond) {
                return Expected.rejected(InvalidInputException.class);
            }
            state.cursors.merge(user, upTo, Math::max);
            return Expected.done();
        }

        Map<ChatId, PendingView> pending(UserId user, int perChatLimit) {
            Map<ChatId, PendingView> pending = new TreeMap<>();
            chats.forEach((chat, state) -> {
                Long cursor = state.cursors.get(user);
                if (cursor == null) {
                    return;
                }
                long oldestKept = Math.max(1, state.lastId() - limits.maxRetained() + 1);
                long from = Math.max(cursor + 1, oldestKept);
                List<Message> above = state.messages.stream()
                        .filter(message -> message.id() >= from)
                        .limit(perChatLimit)
                        .toList();
                boolean gap = cursor + 1 < oldestKept;
                pending.put(chat, new PendingView(above, state.lastId() - cursor, gap, gap ? oldestKept : 0));
            });
            return pending;
        }

        List<ChatSummary> chatsOf(UserId user) {
            return chats.entrySet().stream()
                    .filter(entry -> entry.getValue().cursors.containsKey(user))
                    .sorted(Map.Entry.comparingByKey())
                    .map(entry -> new ChatSummary(entry.getKey(), entry.getValue().cursors.keySet(),
                            entry.getValue().cursors.get(user), entry.getValue().lastId()))
                    .toList();
        }

        long lastId(ChatId chat) {
            ChatState state = chats.get(chat);
            return state == null ? 0 : state.lastId();
        }

        /** The oldest id retention allows the chat to hold: nothing below it may be returned. */
        long retentionFloor(ChatId chat) {
            return Math.max(1, lastId(chat) - limits.maxRetained() + 1);
        }

        /**
         * The oldest id some member has not acknowledged, unless retention dropped it: the store
         * must still hold it, so its first available id is at most this.
         */
        long stillNeededFrom(ChatId chat) {
            long lowestCursor = chats.get(chat).cursors.values().stream().mapToLong(Long::longValue).min().orElseThrow();
            return Math.max(lowestCursor + 1, retentionFloor(chat));
        }

        Expected deliver(UserId recipient, DirectMessage message) {
            Deque<DirectMessage> mailbox = mailboxes.computeIfAbsent(recipient, owner -> new ArrayDeque<>());
            if (mailbox.size() >= limits.mailboxCapacity()) {
                return Expected.rejected(MailboxFullException.class);
            }
            mailbox.addLast(message);
            return Expected.done();
        }

        Expected take(UserId owner, int max) {
            Deque<DirectMessage> mailbox = mailboxes.computeIfAbsent(owner, nobody -> new ArrayDeque<>());
            List<DirectMessage> taken = new ArrayList<>();
            while (taken.size() < max && !mailbox.isEmpty()) {
                taken.add(mailbox.removeFirst());
            }
            return Expected.value(taken);
        }
    }
}
