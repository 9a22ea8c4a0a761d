package dev.pigeonhole.tck;

import dev.pigeonhole.domain.model.ChatId;
import dev.pigeonhole.domain.model.UserId;
import dev.pigeonhole.domain.model.chat.Message;
import dev.pigeonhole.domain.port.out.Chats;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Several members of one chat acting at once, each from a thread of its own: some send, the
 * others acknowledge up to an id that was handed out before the race began.
 *
 * @param members one action per user index: {@link #SENDS}, or an acknowledgement {@code n}
 *                ids below the last one, for {@code n} from 0 up; at most one per user
 */
public record Race(int chat, List<Action> members) implements ChatsDifferentialContract.Step {

    static final int SENDS = -1;

    public record Action(int user, int how) {
    }

    /** Two or more distinct users, each sending or acknowledging. */
    static Arbitrary<List<Action>> members(int users) {
        return Arbitraries.integers().between(-2, 2).list().ofSize(users)
                .map(hows -> {
                    List<Action> actions = new ArrayList<>();
                    for (int user = 0; user < hows.size(); user++) {
                        if (hows.get(user) >= SENDS) {
                            actions.add(new Action(user, hows.get(user)));
                        }
                    }
                    return actions;
                })
                .filter(actions -> actions.size() >= 2);
    }

    /** One race run against a store and then replayed on the reference in an order that ends the same. */
    record Run(Race race, ChatsDifferentialContract.Names names, long lastIdBefore, int step, Instant at) {

        void against(Chats chats, Reference reference, String context) {
            ChatId chat = names.chat(race.chat());
            List<Outcome> outcomes = runAtOnce(chats, chat);

            // Acknowledgements commute with each other and with the sends (each is below every
            // id a send hands out), so they go first; the sends then follow in the order of the
            // ids the store gave them, which is the order it ran them in.
            List<Integer> order = new ArrayList<>();
            for (int i = 0; i < race.members().size(); i++) {
                order.add(i);
            }
            order.sort(Comparator.comparingLong(i -> sortKey(race.members().get(i), outcomes.get(i))));
            for (int i : order) {
                Action action = race.members().get(i);
                UserId user = names.user(action.user());
                Outcome expected = action.how() == SENDS
                        ? Outcome.of(() -> reference.send(chat, user, body(action), at, Optional.empty()))
                        : Outcome.ofVoid(() -> reference.acknowledge(user, chat, upTo(action)));
                Outcome.expectSame(context + ", racer " + user, expected, outcomes.get(i));
            }
        }

        /** Every racer on a thread of its own, all released at once once all are waiting. */
        private List<Outcome> runAtOnce(Chats chats, ChatId chat) {
            List<Action> actions = race.members();
            CountDownLatch ready = new CountDownLatch(actions.size());
            CountDownLatch go = new CountDownLatch(1);
            List<Future<Outcome>> outcomes = new ArrayList<>();
            try (ExecutorService racers = Executors.newVirtualThreadPerTaskExecutor()) {
                for (Action action : actions) {
                    UserId user = names.user(action.user());
                    outcomes.add(racers.submit(() -> {
                        ready.countDown();
                        go.await();
                        return action.how() == SENDS
                                ? Outcome.of(() -> chats.send(chat, user, body(action), at))
                                : Outcome.ofVoid(() -> chats.acknowledge(user, chat, upTo(action)));
                    }));
                }
                ready.await();
                go.countDown();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while racing", e);
            }
            // Closing the executor waited for every racer.
            return outcomes.stream().map(Run::outcome).toList();
        }

        /** A racer's outcome; anything but a domain refusal thrown on the way is a bug, and fails the test. */
        private static Outcome outcome(Future<Outcome> racer) {
            if (racer.state() == Future.State.FAILED) {
                throw new AssertionError("a racer failed", racer.exceptionNow());
            }
            return racer.resultNow();
        }

        private String body(Action action) {
            return "race of step " + step + " by user " + action.user();
        }

        private long upTo(Action action) {
            return Math.max(0, lastIdBefore - action.how());
        }

        /** Acknowledgements and refusals first, then the sends by the id each got. */
        private static long sortKey(Action action, Outcome outcome) {
            if (action.how() != SENDS || outcome.rejected()) {
                return Long.MIN_VALUE;
            }
            return ((Message) outcome.value()).id();
        }
    }
}
