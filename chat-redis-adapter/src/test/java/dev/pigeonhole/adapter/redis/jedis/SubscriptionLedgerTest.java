package dev.pigeonhole.adapter.redis.jedis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pigeonhole.adapter.redis.jedis.SubscriptionLedger.Command;
import dev.pigeonhole.adapter.redis.jedis.SubscriptionLedger.Reaction;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The Jedis subscriber's bookkeeping on its own: each test plays what the subscriber's thread and
 * its callers would do, and what Redis would answer, with no socket.
 */
class SubscriptionLedgerTest {

    private static final SubscriptionKey NEWS = SubscriptionKey.channel("news");
    private static final SubscriptionKey SPORT = SubscriptionKey.channel("sport");
    private static final SubscriptionKey TOPICS = SubscriptionKey.pattern("topic.*");

    private final SubscriptionLedger ledger = new SubscriptionLedger();

    @Test
    void a_subscribe_is_settled_only_once_redis_confirmed_it() {
        ledger.want(NEWS, true);
        assertThat(ledger.settled(NEWS, true)).isFalse();

        SubscriptionKey anchor = ledger.open();
        assertThat(anchor).isEqualTo(NEWS);
        assertThat(ledger.settled(NEWS, true)).as("sent, not yet confirmed").isFalse();

        Reaction reaction = ledger.confirmed(NEWS, true);

        assertThat(reaction.becameLive()).isTrue();
        assertThat(reaction.send()).isEmpty();
        assertThat(ledger.settled(NEWS, true)).isTrue();
        assertThat(ledger.isLive()).isTrue();
    }

    @Test
    void a_new_session_opens_with_one_subscription_and_sends_the_rest_once_that_is_confirmed() {
        ledger.want(NEWS, true);
        ledger.want(SPORT, true);
        ledger.want(TOPICS, true);

        SubscriptionKey anchor = ledger.open();
        Reaction reaction = ledger.confirmed(anchor, true);

        Set<SubscriptionKey> others = Set.of(NEWS, SPORT, TOPICS).stream().filter(key -> !key.equals(anchor))
                .collect(Collectors.toSet());
        assertThat(reaction.send()).extracting(Command::key).containsExactlyInAnyOrderElementsOf(others);
        assertThat(reaction.send()).allMatch(Command::subscribe);
        others.forEach(key -> assertThat(ledger.settled(key, true)).as("%s in flight", key).isFalse());

        others.forEach(key -> ledger.confirmed(key, true));
        assertThat(Set.of(NEWS, SPORT, TOPICS)).allMatch(key -> ledger.settled(key, true));
    }

    @Test
    void an_anchor_no_longer_wanted_when_confirmed_is_unsubscribed_at_once() {
        ledger.want(NEWS, true);
        ledger.open();
        ledger.want(NEWS, false);

        Reaction reaction = ledger.confirmed(NEWS, true);

        assertThat(reaction.send()).containsExactly(new Command(NEWS, false));
        assertThat(ledger.settled(NEWS, false)).isFalse();
        ledger.confirmed(NEWS, false);
        assertThat(ledger.settled(NEWS, false)).isTrue();
    }

    @Test
    void a_change_settles_only_after_every_command_in_flight_for_its_key_is_answered() {
        liveWith(NEWS);
        ledger.send(NEWS, false);
        ledger.want(NEWS, false);
        ledger.want(NEWS, true);
        ledger.send(NEWS, true);

        ledger.confirmed(NEWS, false);
        assertThat(ledger.settled(NEWS, true)).as("the subscribe is still in flight").isFalse();

        ledger.confirmed(NEWS, true);
        assertThat(ledger.settled(NEWS, true)).isTrue();
    }

    @Test
    void a_change_another_caller_reversed_meanwhile_counts_as_settled() {
        ledger.want(NEWS, true);
        ledger.want(NEWS, false);

        assertThat(ledger.settled(NEWS, true)).as("the subscribe happened first, then was undone").isTrue();
    }

    @Test
    void a_live_session_lost_with_subscriptions_owes_a_resubscribed_until_all_are_confirmed_again() {
        liveWith(NEWS, SPORT);

        assertThat(ledger.ended(true)).isTrue();
        assertThat(ledger.owes()).isTrue();
        assertThat(ledger.isLive()).isFalse();
        assertThat(ledger.settled(NEWS, true)).as("nothing is confirmed on no session").isFalse();

        SubscriptionKey anchor = ledger.open();
        Reaction first = ledger.confirmed(anchor, true);
        assertThat(first.recovered()).as("one of two back").isFalse();
        Reaction second = ledger.confirmed(first.send().getFirst().key(), true);

        assertThat(second.recovered()).isTrue();
        assertThat(ledger.owes()).isFalse();
    }

    @Test
    void a_session_that_never_became_live_or_held_nothing_wanted_owes_nothing() {
        ledger.want(NEWS, true);
        ledger.open();
        assertThat(ledger.ended(true)).as("lost before its anchor was confirmed").isFalse();

        liveWith(SPORT);
        ledger.want(NEWS, false);
        ledger.want(SPORT, false);
        assertThat(ledger.ended(true)).as("lost with nothing wanted").isFalse();
        assertThat(ledger.owes()).isFalse();
    }

    @Test
    void an_unasked_unsubscribe_of_a_wanted_channel_means_redis_dropped_it() {
        SubscriptionKey shard = SubscriptionKey.sharded("chat:{42}");
        liveWith(shard);

        Reaction reaction = ledger.confirmed(shard, false);

        assertThat(reaction.dropped()).isTrue();
        assertThat(ledger.wants(shard)).as("still wanted, so the next session subscribes it again").isTrue();
    }

    @Test
    void an_unasked_subscribe_of_something_unwanted_is_undone() {
        liveWith(NEWS);

        Reaction reaction = ledger.confirmed(SPORT, true);

        assertThat(reaction.dropped()).isFalse();
        assertThat(reaction.send()).containsExactly(new Command(SPORT, false));
    }

    @Test
    void giving_up_the_last_subscription_forgives_what_is_owed() {
        liveWith(NEWS);
        ledger.ended(true);
        assertThat(ledger.forgiveIfIdle()).as("NEWS is still wanted").isFalse();

        ledger.want(NEWS, false);

        assertThat(ledger.forgiveIfIdle()).isTrue();
        assertThat(ledger.owes()).isFalse();
        assertThat(ledger.forgiveIfIdle()).as("only once").isFalse();
    }

    @Test
    void a_subscribe_that_failed_leaves_nothing_behind() {
        ledger.want(NEWS, true);

        ledger.giveUp(NEWS);

        assertThat(ledger.wants(NEWS)).isFalse();
        assertThat(ledger.wantsAnything()).isFalse();
    }

    @Test
    void adopted_subscriptions_are_sent_on_a_live_session_and_owe_a_resubscribed() {
        SubscriptionKey moved = SubscriptionKey.sharded("chat:{7}");
        liveWith(NEWS);

        assertThat(ledger.adopt(Set.of(moved, NEWS))).as("NEWS is already held")
                .containsExactly(new Command(moved, true));
        assertThat(ledger.owes()).isTrue();

        assertThat(ledger.confirmed(moved, true).recovered()).isTrue();
    }

    @Test
    void adopted_subscriptions_wait_for_the_next_session_when_none_is_live() {
        SubscriptionKey moved = SubscriptionKey.sharded("chat:{7}");

        assertThat(ledger.adopt(Set.of(moved))).isEmpty();

        assertThat(ledger.open()).isEqualTo(moved);
    }

    @Test
    void releasing_moved_subscriptions_returns_only_those_still_wanted_and_may_end_the_debt() {
        SubscriptionKey one = SubscriptionKey.sharded("chat:{1}");
        SubscriptionKey two = SubscriptionKey.sharded("chat:{2}");
        liveWith(one, two);
        ledger.ended(true);
        ledger.want(two, false);

        assertThat(ledger.release(Set.of(one, two))).containsExactly(one);
        assertThat(ledger.wantsAnything()).isFalse();
        assertThat(ledger.owes()).isFalse();
    }

    /** A live session on which every key given is confirmed. */
    private void liveWith(SubscriptionKey... keys) {
        for (SubscriptionKey key : keys) {
            ledger.want(key, true);
        }
        SubscriptionKey anchor = ledger.open();
        for (Command command : ledger.confirmed(anchor, true).send()) {
            ledger.confirmed(command.key(), command.subscribe());
        }
        for (SubscriptionKey key : keys) {
            assertThat(ledger.settled(key, true)).as("%s confirmed", key).isTrue();
        }
    }
}
