package dev.pigeonhole.tck;

import dev.pigeonhole.domain.model.ChatId;
import dev.pigeonhole.domain.model.UserId;
import dev.pigeonhole.domain.model.chat.Access;
import dev.pigeonhole.domain.model.chat.IdempotencyKey;
import dev.pigeonhole.domain.model.limits.Limits;
import dev.pigeonhole.domain.model.limits.RateLimit;
import dev.pigeonhole.domain.model.live.Channel;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;

/**
 * The domain's {@link dev.pigeonhole.domain.model.chat.Chat} aggregate is the reference: the store and
 * the aggregate receive the same random operations, and every answer must be the same (the value,
 * or the type of the rejection), every chat list after every step, every pending and history read,
 * and the live announcements of every message, in order. The rules are written in the aggregate
 * alone; this class only keeps aggregates in a map, as the plainest store would, and compares.
 *
 * <p>Sequences mix the operations of the {@code Chats} port, idempotent sends with reused and
 * misused keys, more keys than a chat remembers, sends refused by their rate limit, hours
 * passing so that keys expire, and <em>races</em>: sends and acknowledgements
 * by several members of one chat at once, from threads of their own. A race's final state does
 * not depend on the order the store happened to run it in (each member acts once, and every
 * acknowledgement is within the ids handed out before it), so the reference runs the
 * acknowledgements and then the sends in the order of the ids the store gave them, and must end
 * exactly where the store did.
 *
 * <p>Four users and three chats make chats collide, fill up, empty and come back; a chat holds
 * three members and keeps four messages for the same reason. Each try names its users and chats
 * with a prefix of its own, so tries share nothing but the store, which is opened once per run.
 */
public abstract class ChatsDifferentialContract extends DifferentialContract {

    static final int USERS = 4;
    static final int CHATS = 3;
    static final Limits LIMITS = Limits.DEFAULTS.withMaxMembers(3).withMaxRetained(4);
    /** Steps are a millisecond apart: a member sending a fourth time within 30 steps is refused. */
    static final RateLimit SEND_RATE = new RateLimit(3, Duration.ofMillis(30));
    private static final Instant START = Instant.parse("2026-11-21T10:00:00Z");
    /** Two of these close every idempotency window opened before them. */
    private static final Duration HALF_A_DAY_AND_MORE = IdempotencyKey.WINDOW.dividedBy(2).plusHours(1);

    protected ChatsDifferentialContract() {
        super(LIMITS);
    }

    @Property(tries = 200)
    public void the_store_answers_every_operation_as_the_chat_aggregate_does(
            @ForAll("scenarios") List<Step> steps) {
        Names names = Names.fresh();
        Reference reference = new Reference(LIMITS);
        try (Announcements heard = Announcements.listen(store(), names.chats().stream().map(Channel::ofChat).toList())) {
            Instant at = START;
            for (int index = 0; index < steps.size(); index++) {
                Step step = steps.get(index);
                at = at.plusMillis(1);
                String context = "step " + index + ": " + step;
                if (step instanceof Pass) {
                    at = at.plus(HALF_A_DAY_AND_MORE);
                    continue;
                }
                run(step, index, at, names, reference, context);
                for (UserId user : names.users()) {
                    Outcome.expectSame(context + ", then the chat list of " + user,
                            Outcome.of(() -> reference.chatsOf(user)), Outcome.of(() -> store().chats().chatsOf(user)));
                    Outcome.expectSame(context + ", then the chat ids of " + user,
                            Outcome.of(() -> reference.chatIdsOf(user)), Outcome.of(() -> store().chats().chatIdsOf(user)));
                }
            }
            for (UserId user : names.users()) {
                readEverything(user, names, reference, "in the end");
            }
            heard.expectExactly(reference.announced());
        }
    }

    private void run(Step step, int index, Instant at, Names names, Reference reference, String context) {
        var chats = store().chats();
        switch (step) {
            case Open open -> {
                ChatId chat = names.chat(open.chat());
                UserId creator = names.user(open.creator());
                Set<UserId> others = names.usersIn(open.others());
                Access access = open.toAll() ? Access.OPEN : Access.PRIVATE;
                String body = "opening of step " + index;
                Outcome.expectSame(context, Outcome.of(() -> reference.open(chat, creator, others, access, body, at)),
                        Outcome.of(() -> chats.open(chat, creator, others, access, body, at)));
            }
            case Send send -> {
                ChatId chat = names.chat(send.chat());
                UserId sender = names.user(send.sender());
                Optional<IdempotencyKey> key = send.key() < 0
                        ? Optional.empty() : Optional.of(IdempotencyKey.of("key-" + send.key()));
                String body = key.isEmpty() ? "message of step " + index : "keyed body " + send.variant();
                Outcome.expectSame(context, Outcome.of(() -> reference.send(chat, sender, body, at, key, SEND_RATE)),
                        Outcome.of(() -> chats.send(chat, sender, body, at, key, SEND_RATE)));
            }
            case Join join -> {
                ChatId chat = names.chat(join.chat());
                UserId by = names.user(join.by());
                UserId user = names.user(join.user());
                Outcome.expectSame(context, Outcome.of(() -> reference.join(chat, by, user)),
                        Outcome.of(() -> chats.join(chat, by, user)));
            }
            case Accept accept -> {
                ChatId chat = names.chat(accept.chat());
                UserId inviter = names.user(accept.inviter());
                UserId invitee = names.user(accept.invitee());
                long joinPoint = Math.max(0, reference.lastId(chat) + accept.offset());
                Outcome.expectSame(context + " (at " + joinPoint + ")",
                        Outcome.of(() -> reference.accept(chat, inviter, invitee, joinPoint)),
                        Outcome.of(() -> chats.accept(chat, inviter, invitee, joinPoint)));
            }
            case Leave leave -> {
                ChatId chat = names.chat(leave.chat());
                UserId user = names.user(leave.user());
                Outcome.expectSame(context, Outcome.of(() -> reference.leave(chat, user)),
                        Outcome.of(() -> chats.leave(chat, user)));
            }
            case Acknowledge acknowledge -> {
                ChatId chat = names.chat(acknowledge.chat());
                UserId user = names.user(acknowledge.user());
                long upTo = acknowledge.upTo(reference.lastId(chat));
                Outcome.expectSame(context + " (up to " + upTo + ")",
                        Outcome.ofVoid(() -> reference.acknowledge(user, chat, upTo)),
                        Outcome.ofVoid(() -> chats.acknowledge(user, chat, upTo)));
            }
            case AcknowledgeAll batch -> {
                UserId user = names.user(batch.user());
                SortedMap<ChatId, Long> upTo = new TreeMap<>();
                for (int c = 0; c < CHATS; c++) {
                    if ((batch.chats() & (1 << c)) != 0) {
                        ChatId chat = names.chat(c);
                        upTo.put(chat, Acknowledge.upTo(batch.upTo().get(c), reference.lastId(chat)));
                    }
                }
                Outcome.expectSame(context + " (up to " + upTo + ")",
                        Outcome.ofVoid(() -> reference.acknowledge(user, upTo)),
                        Outcome.ofVoid(() -> chats.acknowledge(user, upTo)));
            }
            case Pending pending -> {
                UserId user = names.user(pending.user());
                Outcome.expectSame(context, Outcome.of(() -> reference.pending(user, pending.perChatLimit())),
                        Outcome.of(() -> chats.pending(user, pending.perChatLimit())));
            }
            case Read read -> {
                ChatId chat = names.chat(read.chat());
                UserId reader = names.user(read.reader());
                long after = read.after(reference.lastId(chat));
                Outcome.expectSame(context + " (after " + after + ")",
                        Outcome.of(() -> reference.read(reader, chat, after, read.limit())),
                        Outcome.of(() -> chats.read(reader, chat, after, read.limit())));
            }
            case Race race -> new Race.Run(race, names, reference.lastId(names.chat(race.chat())), index, at)
                    .against(chats, reference, context);
            case Pass pass -> throw new IllegalStateException("time passes outside run()");
        }
    }

    private void readEverything(UserId user, Names names, Reference reference, String context) {
        Outcome.expectSame(context + ", pending of " + user, Outcome.of(() -> reference.pending(user, 100)),
                Outcome.of(() -> store().chats().pending(user, 100)));
        for (ChatId chat : names.chats()) {
            Outcome.expectSame(context + ", history of " + chat + " for " + user,
                    Outcome.of(() -> reference.read(user, chat, 0, 100)),
                    Outcome.of(() -> store().chats().read(user, chat, 0, 100)));
        }
    }

    // ---------------------------------------------------------------- operations

    /** One thing that happens to the store, over indices into the pools of users and chats. */
    public sealed interface Step permits Open, Send, Join, Accept, Leave, Acknowledge, AcknowledgeAll, Pending, Read, Race,
            Pass {
    }

    /**
     * {@code others} is a bit set over the user pool; it may include the creator, who is a member
     * either way. {@code toAll} opens it to anyone, else it is private.
     */
    public record Open(int creator, int others, int chat, boolean toAll) implements Step {
    }

    /** {@code key} is -1 for none, else one of a few keys; a key sent with another {@code variant} is a misused key. */
    public record Send(int sender, int chat, int key, int variant) implements Step {
    }

    /** {@code by} brings {@code user} in; the same index is a user joining by itself. */
    public record Join(int by, int user, int chat) implements Step {
    }

    /**
     * {@code invitee} accepts an invitation of {@code inviter}, made {@code -offset} messages ago
     * (a positive offset: an invitation to an earlier chat under the same id, past its last id).
     */
    public record Accept(int inviter, int invitee, int chat, int offset) implements Step {
    }

    public record Leave(int user, int chat) implements Step {
    }

    public record Pending(int user, int perChatLimit) implements Step {
    }

    /** {@code upTo} is an id, or {@link #LAST} for the chat's last id, or {@link #BEYOND} for one past it. */
    public record Acknowledge(int user, int chat, int upTo) implements Step {
        static final int LAST = -1;
        static final int BEYOND = -2;

        long upTo(long lastId) {
            return upTo(upTo, lastId);
        }

        static long upTo(int upTo, long lastId) {
            return switch (upTo) {
                case LAST -> lastId;
                case BEYOND -> lastId + 1;
                default -> upTo;
            };
        }
    }

    /**
     * A batch over the chats of the bit set {@code chats} (at least one), up to
     * {@code upTo.get(i)} in chat i, each read as {@link Acknowledge#upTo} reads it.
     */
    public record AcknowledgeAll(int user, int chats, List<Integer> upTo) implements Step {
    }

    /** {@code after} is an id, or -1 for a few ids before the chat's last. */
    public record Read(int reader, int chat, int after, int limit) implements Step {
        long after(long lastId) {
            return after >= 0 ? after : Math.max(0, lastId - 2);
        }
    }

    /** Half a day and more passes: two of these close every idempotency window. */
    public record Pass() implements Step {
    }

    @Provide
    public Arbitrary<List<Step>> scenarios() {
        Arbitrary<Integer> user = Arbitraries.integers().between(0, USERS - 1);
        Arbitrary<Integer> chat = Arbitraries.integers().between(0, CHATS - 1);
        Arbitrary<Step> open = Combinators.combine(user, Arbitraries.integers().between(0, (1 << USERS) - 1), chat,
                Arbitraries.of(true, false)).as(Open::new);
        Arbitrary<Step> send = Combinators.combine(user, chat, Arbitraries.integers().between(-3, 2),
                Arbitraries.integers().between(0, 4)).as((sender, in, key, variant) ->
                new Send(sender, in, Math.max(key, -1), variant == 4 ? 1 : 0));
        // Half the joins are a user coming in by itself, which only an open chat lets it do.
        Arbitrary<Step> join = Combinators.combine(user, user, chat, Arbitraries.of(true, false))
                .as((by, who, in, self) -> new Join(self ? who : by, who, in));
        Arbitrary<Step> accept = Combinators.combine(user, user, chat, Arbitraries.integers().between(-3, 1))
                .as(Accept::new);
        Arbitrary<Step> leave = Combinators.combine(user, chat).as(Leave::new);
        Arbitrary<Step> pending = Combinators.combine(user, Arbitraries.integers().between(1, 3)).as(Pending::new);
        Arbitrary<Step> acknowledge = Combinators.combine(user, chat,
                Arbitraries.integers().between(Acknowledge.BEYOND, 8)).as(Acknowledge::new);
        Arbitrary<Step> acknowledgeAll = Combinators.combine(user, Arbitraries.integers().between(1, (1 << CHATS) - 1),
                Arbitraries.integers().between(Acknowledge.BEYOND, 8).list().ofSize(CHATS)).as(AcknowledgeAll::new);
        Arbitrary<Step> read = Combinators.combine(user, chat, Arbitraries.integers().between(-1, 6),
                Arbitraries.integers().between(1, 3)).as(Read::new);
        Arbitrary<Step> race = Combinators.combine(chat, Race.members(USERS)).as(Race::new);
        return Arbitraries.frequencyOf(
                        Tuple.of(3, open),
                        Tuple.of(8, send),
                        Tuple.of(2, join),
                        Tuple.of(2, accept),
                        Tuple.of(2, leave),
                        Tuple.of(2, pending),
                        Tuple.of(4, acknowledge),
                        Tuple.of(2, acknowledgeAll),
                        Tuple.of(2, read),
                        Tuple.of(2, race),
                        Tuple.of(1, Arbitraries.just(new Pass())))
                .list().ofMinSize(10).ofMaxSize(60);
    }

    /** Pool index to id, under a prefix of its own for each try. */
    record Names(String prefix) {

        static Names fresh() {
            return new Names("t" + UUID.randomUUID().toString().replace("-", ""));
        }

        UserId user(int index) {
            return UserId.of(prefix + "-u" + index);
        }

        ChatId chat(int index) {
            return ChatId.of(prefix + "-c" + index);
        }

        Set<UserId> usersIn(int bits) {
            Set<UserId> users = new TreeSet<>();
            for (int index = 0; index < USERS; index++) {
                if ((bits & (1 << index)) != 0) {
                    users.add(user(index));
                }
            }
            return users;
        }

        List<UserId> users() {
            List<UserId> users = new ArrayList<>(USERS);
            for (int index = 0; index < USERS; index++) {
                users.add(user(index));
            }
            return users;
        }

        List<ChatId> chats() {
            List<ChatId> chats = new ArrayList<>(CHATS);
            for (int index = 0; index < CHATS; index++) {
                chats.add(chat(index));
            }
            return chats;
        }
    }
}
