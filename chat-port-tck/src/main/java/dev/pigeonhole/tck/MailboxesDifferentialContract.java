package dev.pigeonhole.tck;

import dev.pigeonhole.domain.model.UserId;
import dev.pigeonhole.domain.model.limits.Limits;
import dev.pigeonhole.domain.model.live.Channel;
import dev.pigeonhole.domain.model.mailbox.Delivered;
import dev.pigeonhole.domain.model.mailbox.DirectMessage;
import dev.pigeonhole.domain.model.mailbox.Sender;
import dev.pigeonhole.domain.port.out.Mailboxes;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * The domain's {@link dev.pigeonhole.domain.model.mailbox.Mailbox} aggregate is the reference:
 * the store and the aggregate receive the same random deliveries, reads and acknowledgements, and
 * every answer must be the same (the value, or the type of the refusal), what every mailbox holds
 * after every step, and the deliveries announced on each owner's channel, in order. The rules are
 * written in the aggregate alone; {@link MailboxReference} only keeps aggregates in a map.
 *
 * <p>Sequences include <em>races</em>: several senders delivering to one owner at once, some of
 * them refused once the mailbox is full, which the reference replays in the order of the ids the
 * store handed out (a refused delivery took none, so it comes last); and two devices of one owner
 * reading at once and then acknowledging at once what each read, which ends the same in any order
 * since acknowledging is forward only.
 *
 * <p>Three users and mailboxes of three messages make mailboxes fill, empty and fill again. Each
 * try names its users with a prefix of its own, so tries share nothing but the store, which is
 * opened once per run.
 */
public abstract class MailboxesDifferentialContract extends DifferentialContract {

    static final int USERS = 3;
    static final Limits LIMITS = Limits.DEFAULTS.withMailboxCapacity(3);
    private static final Instant START = Instant.parse("2026-11-21T10:00:00Z");
    private static final long RACE_SECONDS = 20;

    protected MailboxesDifferentialContract() {
        super(LIMITS);
    }

    @Property(tries = 200)
    public void every_store_answers_every_mailbox_operation_as_the_aggregate_does(
            @ForAll("scenarios") List<Step> steps) throws Exception {
        Names names = Names.fresh();
        MailboxReference reference = new MailboxReference(LIMITS);
        List<Channel> owners = names.users().stream().map(Channel::ofUser).toList();
        try (Announcements heard = Announcements.listen(store(), owners)) {
            Instant at = START;
            for (int index = 0; index < steps.size(); index++) {
                at = at.plusMillis(1);
                String context = "step " + index + ": " + steps.get(index);
                run(steps.get(index), index, at, names, reference, context);
                for (UserId owner : names.users()) {
                    Outcome.expectSame(context + ", then the mailbox of " + owner,
                            Outcome.of(() -> reference.read(owner, LIMITS.mailboxCapacity())),
                            Outcome.of(() -> store().mailboxes().read(owner, LIMITS.mailboxCapacity())));
                }
            }
            heard.expectExactly(reference.announced());
        }
    }

    private void run(Step step, int index, Instant at, Names names, MailboxReference reference, String context)
            throws Exception {
        Mailboxes mailboxes = store().mailboxes();
        switch (step) {
            case Deliver deliver -> {
                UserId recipient = names.user(deliver.recipient());
                UserId sender = names.user(deliver.sender());
                String body = "message of step " + index;
                Sender from = standing(deliver.sender());
                Outcome.expectSame(context, Outcome.of(() -> reference.deliver(recipient, sender, body, at, from)),
                        Outcome.of(() -> mailboxes.deliver(recipient, sender, body, at, from)));
            }
            case Read read -> {
                UserId owner = names.user(read.owner());
                Outcome.expectSame(context, Outcome.of(() -> reference.read(owner, read.max())),
                        Outcome.of(() -> mailboxes.read(owner, read.max())));
            }
            case Acknowledge acknowledge -> {
                UserId owner = names.user(acknowledge.owner());
                long upTo = acknowledge.upTo(reference.lastId(owner));
                Outcome.expectSame(context + " (up to " + upTo + ")",
                        Outcome.ofVoid(() -> reference.acknowledge(owner, upTo)),
                        Outcome.ofVoid(() -> mailboxes.acknowledge(owner, upTo)));
            }
            case Flood flood -> flood(flood, index, at, names, reference, context);
            case TwoDevices devices -> twoDevices(devices, names, reference, context);
        }
    }

    /** Every sender delivers to the one recipient at once; the store's ids say in which order it ran them. */
    private void flood(Flood flood, int index, Instant at, Names names, MailboxReference reference, String context)
            throws Exception {
        UserId recipient = names.user(flood.recipient());
        List<UserId> senders = names.usersIn(flood.senders());
        List<Callable<Outcome>> deliveries = new ArrayList<>();
        CyclicBarrier together = new CyclicBarrier(senders.size());
        for (UserId sender : senders) {
            String body = "flood of step " + index + " from " + sender;
            Sender from = standing(names.indexOf(sender));
            deliveries.add(() -> {
                together.await(RACE_SECONDS, TimeUnit.SECONDS);
                return Outcome.of(() -> store().mailboxes().deliver(recipient, sender, body, at, from));
            });
        }
        List<Outcome> outcomes = atOnce(deliveries);
        List<Integer> order = new ArrayList<>();
        for (int i = 0; i < senders.size(); i++) {
            order.add(i);
        }
        order.sort(Comparator.comparingLong(i -> outcomes.get(i).rejected()
                ? Long.MAX_VALUE : ((Delivered) outcomes.get(i).value()).message().id()));
        for (int i : order) {
            UserId sender = senders.get(i);
            String body = "flood of step " + index + " from " + sender;
            Sender from = standing(names.indexOf(sender));
            Outcome.expectSame(context + ", the delivery from " + sender,
                    Outcome.of(() -> reference.deliver(recipient, sender, body, at, from)), outcomes.get(i));
        }
    }

    /**
     * Two devices of one owner read at once, then acknowledge at once what each read: both read
     * the same, and acknowledging is forward only, so the mailbox ends where the reference does.
     */
    private void twoDevices(TwoDevices devices, Names names, MailboxReference reference, String context)
            throws Exception {
        UserId owner = names.user(devices.owner());
        CyclicBarrier readTogether = new CyclicBarrier(2);
        CyclicBarrier acknowledgeTogether = new CyclicBarrier(2);
        List<Callable<Outcome>> both = new ArrayList<>();
        for (int device = 0; device < 2; device++) {
            int max = device == 0 ? devices.max() : devices.max() + 1;
            both.add(() -> {
                readTogether.await(RACE_SECONDS, TimeUnit.SECONDS);
                Outcome read = Outcome.of(() -> store().mailboxes().read(owner, max));
                acknowledgeTogether.await(RACE_SECONDS, TimeUnit.SECONDS);
                Outcome acknowledged = Outcome.ofVoid(() -> store().mailboxes().acknowledge(owner, lastOf(read)));
                return new Outcome(List.of(read, acknowledged), null);
            });
        }
        List<Outcome> outcomes = atOnce(both);
        List<Outcome> reads = new ArrayList<>();
        for (int device = 0; device < 2; device++) {
            int max = device == 0 ? devices.max() : devices.max() + 1;
            reads.add(Outcome.of(() -> reference.read(owner, max)));
            Outcome.expectSame(context + ", what device " + device + " read", reads.get(device),
                    done(outcomes.get(device)).get(0));
        }
        for (int device = 0; device < 2; device++) {
            Outcome read = reads.get(device);
            Outcome.expectSame(context + ", device " + device + " acknowledging what it read",
                    Outcome.ofVoid(() -> reference.acknowledge(owner, lastOf(read))), done(outcomes.get(device)).get(1));
        }
    }

    /** What one device's read and acknowledgement came to. */
    @SuppressWarnings("unchecked")
    private static List<Outcome> done(Outcome device) {
        return (List<Outcome>) device.value();
    }

    /** The id of the last message a read answered, or 0 for none. */
    private static long lastOf(Outcome read) {
        @SuppressWarnings("unchecked")
        List<DirectMessage> messages = (List<DirectMessage>) read.value();
        return messages == null || messages.isEmpty() ? 0 : messages.getLast().id();
    }

    private static List<Outcome> atOnce(List<Callable<Outcome>> calls) throws Exception {
        try (ExecutorService threads = Executors.newFixedThreadPool(calls.size())) {
            List<Future<Outcome>> running = new ArrayList<>();
            calls.forEach(call -> running.add(threads.submit(call)));
            List<Outcome> outcomes = new ArrayList<>();
            for (Future<Outcome> call : running) {
                outcomes.add(call.get(RACE_SECONDS, TimeUnit.SECONDS));
            }
            return outcomes;
        }
    }

    // ---------------------------------------------------------------- operations

    /** One thing that happens to the store, over indices into the pool of users. */
    public sealed interface Step permits Deliver, Read, Acknowledge, Flood, TwoDevices {
    }

    public record Deliver(int sender, int recipient) implements Step {
    }

    public record Read(int owner, int max) implements Step {
    }

    /** {@code upTo} is an id, or {@link #LAST} for the mailbox's last id, or {@link #BEYOND} for one past it. */
    public record Acknowledge(int owner, int upTo) implements Step {
        static final int LAST = -1;
        static final int BEYOND = -2;

        long upTo(long lastId) {
            return switch (upTo) {
                case LAST -> lastId;
                case BEYOND -> lastId + 1;
                default -> upTo;
            };
        }
    }

    /** {@code senders} is a bit set over the user pool, two senders at least; one may be the recipient. */
    public record Flood(int recipient, int senders) implements Step {
    }

    /** Two devices read at most {@code max} and {@code max + 1} messages at once, then acknowledge them. */
    public record TwoDevices(int owner, int max) implements Step {
    }

    @Provide
    public Arbitrary<List<Step>> scenarios() {
        Arbitrary<Integer> user = Arbitraries.integers().between(0, USERS - 1);
        Arbitrary<Step> deliver = Combinators.combine(user, user).as(Deliver::new);
        Arbitrary<Step> read = Combinators.combine(user, Arbitraries.integers().between(1, 4)).as(Read::new);
        Arbitrary<Step> acknowledge = Combinators.combine(user,
                Arbitraries.integers().between(Acknowledge.BEYOND, 8)).as(Acknowledge::new);
        Arbitrary<Step> flood = Combinators.combine(user, Arbitraries.integers().between(0, (1 << USERS) - 1)
                .filter(bits -> Integer.bitCount(bits) >= 2)).as(Flood::new);
        Arbitrary<Step> twoDevices = Combinators.combine(user, Arbitraries.integers().between(1, 3))
                .as(TwoDevices::new);
        return Arbitraries.frequencyOf(
                        Tuple.of(8, deliver),
                        Tuple.of(3, read),
                        Tuple.of(4, acknowledge),
                        Tuple.of(2, flood),
                        Tuple.of(2, twoDevices))
                .list().ofMinSize(10).ofMaxSize(50);
    }

    /**
     * The first user of the pool shares a chat with everyone, the others with no one, so strangers
     * outnumber the share a mailbox of {@link #LIMITS} leaves them, and compete for it.
     */
    static Sender standing(int sender) {
        return sender == 0 ? Sender.CO_MEMBER : Sender.STRANGER;
    }

    /** Pool index to id, under a prefix of its own for each try. */
    record Names(String prefix) {

        static Names fresh() {
            return new Names("m" + UUID.randomUUID().toString().replace("-", ""));
        }

        UserId user(int index) {
            return UserId.of(prefix + "-u" + index);
        }

        List<UserId> users() {
            List<UserId> users = new ArrayList<>(USERS);
            for (int index = 0; index < USERS; index++) {
                users.add(user(index));
            }
            return users;
        }

        int indexOf(UserId user) {
            return Integer.parseInt(user.value().substring(user.value().lastIndexOf("-u") + 2));
        }

        List<UserId> usersIn(int bits) {
            List<UserId> users = new ArrayList<>();
            for (int index = 0; index < USERS; index++) {
                if ((bits & (1 << index)) != 0) {
                    users.add(user(index));
                }
            }
            return users;
        }
    }
}
