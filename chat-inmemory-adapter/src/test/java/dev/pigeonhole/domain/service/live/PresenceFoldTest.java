package dev.pigeonhole.domain.service.live;

import dev.pigeonhole.adapter.inmemory.InMemoryChannels;
import dev.pigeonhole.domain.model.ChatId;
import dev.pigeonhole.domain.model.UserId;
import dev.pigeonhole.domain.model.chat.Access;
import dev.pigeonhole.domain.model.chat.ChatSummary;
import dev.pigeonhole.domain.model.live.Channel;
import dev.pigeonhole.domain.model.live.LiveEvent;
import dev.pigeonhole.domain.model.live.LiveSignal;
import dev.pigeonhole.testsupport.TestClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * One feed's presence fold on its own, without a reader: who it names to the multiplexer as the
 * user's chats change, what it folds in, and when its diff falls due. The feed tests see the same
 * through a client; here each step can be looked at, so a rule that only shows in a race there
 * (someone unnamed while their news is folded in) is pinned directly.
 */
class PresenceFoldTest {

    private static final UserId ME = UserId.of("me");
    private static final UserId ANN = UserId.of("ann");
    private static final UserId BEN = UserId.of("ben");
    private static final UserId CY = UserId.of("cy");
    private static final ChatId LUNCH = ChatId.of("lunch");
    private static final ChatId WORK = ChatId.of("work");

    private static final Duration WAIT = Duration.ofSeconds(10);

    private final TestClock clock = new TestClock();
    private final InMemoryChannels channels = new InMemoryChannels();
    private final SubscriptionMultiplexer multiplexer = new SubscriptionMultiplexer(channels, 16);

    @AfterEach
    void close() {
        multiplexer.close();
    }

    @Test
    void it_names_the_user_and_every_co_member_once_listening_and_unnames_them_all_when_detached() {
        PresenceFold fold = new PresenceFold(ME, List.of(chat(LUNCH, ME, ANN), chat(WORK, ME, BEN)), clock);
        LocalSubscription subscription = listening(fold);

        assertThat(fold.choosesWhosePresence()).as("offered only the presence of whom it names").isTrue();
        assertThat(named(subscription)).containsExactlyInAnyOrder(ME, ANN, BEN);
        assertThat(multiplexer.peopleListenedFor()).isEqualTo(3);

        subscription.close();

        assertThat(multiplexer.peopleListenedFor()).as("nothing left behind").isZero();
        fold.memberChanged(new LiveEvent.MembershipChanged(CY, LUNCH, true));
        assertThat(multiplexer.peopleListenedFor()).as("a detached fold names no one any more").isZero();
    }

    @Test
    void only_a_presence_change_of_someone_named_is_folded_in_and_only_the_first_wakes_the_reader() {
        PresenceFold fold = new PresenceFold(ME, List.of(chat(LUNCH, ME, ANN, BEN)), clock);
        LiveSignal.Event message = new LiveSignal.Event(Channel.ofChat(LUNCH), new LiveEvent.MembershipChanged(CY, LUNCH, true));

        assertThat(fold.admit(presence(ANN, true))).as("no subscription to ask yet").isNull();
        listening(fold);

        assertThat(fold.admit(message)).as("anything but presence passes as it came").isSameAs(message);
        assertThat(fold.admit(presence(CY, true))).as("a stranger").isNull();
        assertThat(fold.admit(presence(ANN, true))).isEqualTo(new LiveSignal.Presence(Set.of(), Set.of()));
        assertThat(fold.admit(presence(BEN, false))).as("folded into the diff already waiting").isNull();

        fold.wokenUp();
        assertThat(fold.takeIfDue()).contains(new LiveSignal.Presence(Set.of(ANN), Set.of(BEN)));
        assertThat(fold.admit(presence(BEN, true))).as("the first change since the diff wakes again")
                .isEqualTo(new LiveSignal.Presence(Set.of(), Set.of()));
    }

    @Test
    void a_diff_is_due_at_once_the_first_time_then_an_interval_after_the_last() {
        PresenceFold fold = new PresenceFold(ME, List.of(chat(LUNCH, ME, ANN)), clock);
        listening(fold);

        assertThat(fold.dueIn()).as("nothing waiting").isEmpty();
        assertThat(fold.takeIfDue()).isEmpty();
        fold.admit(presence(ANN, true));
        assertThat(fold.takeIfDue()).as("not woken yet: the wake-up is still queued").isEmpty();
        fold.wokenUp();
        assertThat(fold.dueIn()).contains(Duration.ZERO);
        assertThat(fold.takeIfDue()).contains(new LiveSignal.Presence(Set.of(ANN), Set.of()));
        assertThat(fold.dueIn()).as("handed out").isEmpty();

        clock.advance(Duration.ofMillis(300));
        fold.admit(presence(ANN, false));
        fold.wokenUp();
        assertThat(fold.dueIn()).contains(Duration.ofMillis(700));
        assertThat(fold.takeIfDue()).isEmpty();

        clock.advance(Duration.ofMillis(700));
        assertThat(fold.dueIn()).contains(Duration.ZERO);
        clock.advance(Duration.ofSeconds(5));
        assertThat(fold.dueIn()).as("overdue is due now, never negative").contains(Duration.ZERO);
        assertThat(fold.takeIfDue()).contains(new LiveSignal.Presence(Set.of(), Set.of(ANN)));

        clock.advance(Duration.ofMillis(999));
        fold.admit(presence(ANN, true));
        fold.wokenUp();
        assertThat(fold.dueIn()).as("counted from the diff just handed out").contains(Duration.ofMillis(1));
    }

    @Test
    void news_of_someone_who_stops_being_a_co_member_is_forgotten_and_an_empty_diff_is_no_diff() {
        PresenceFold fold = new PresenceFold(ME, List.of(chat(LUNCH, ME, ANN, BEN), chat(WORK, ME, BEN)), clock);
        LocalSubscription subscription = listening(fold);
        fold.admit(presence(ANN, true));
        fold.admit(presence(BEN, true));

        fold.memberChanged(new LiveEvent.MembershipChanged(ANN, LUNCH, false));
        fold.chatLeft(LUNCH);

        assertThat(named(subscription)).as("ben still shares work").containsExactlyInAnyOrder(ME, BEN);
        fold.wokenUp();
        assertThat(fold.takeIfDue()).contains(new LiveSignal.Presence(Set.of(BEN), Set.of()));

        clock.advance(PresenceFold.INTERVAL);
        fold.admit(presence(BEN, false));
        fold.chatLeft(WORK);
        fold.wokenUp();
        assertThat(fold.takeIfDue()).as("all of it was about someone gone").isEmpty();
        assertThat(named(subscription)).containsExactly(ME);

        fold.memberChanged(new LiveEvent.MembershipChanged(CY, WORK, true));
        assertThat(named(subscription)).as("a chat no longer the user's changes nothing").containsExactly(ME);
        clock.advance(Duration.ofMillis(1));
        fold.admit(presence(ME, true));
        fold.wokenUp();
        assertThat(fold.dueIn()).as("the empty diff did not count as handed out").contains(Duration.ZERO);
    }

    @Test
    void joining_and_leaving_one_chat_names_and_unnames_unless_another_chat_is_shared() {
        PresenceFold fold = new PresenceFold(ME, List.of(chat(LUNCH, ME, ANN), chat(WORK, ME, ANN)), clock);
        LocalSubscription subscription = listening(fold);

        fold.memberChanged(new LiveEvent.MembershipChanged(BEN, LUNCH, true));
        assertThat(named(subscription)).containsExactlyInAnyOrder(ME, ANN, BEN);

        fold.memberChanged(new LiveEvent.MembershipChanged(ANN, LUNCH, false));
        assertThat(named(subscription)).as("ann is still in work").containsExactlyInAnyOrder(ME, ANN, BEN);
        fold.memberChanged(new LiveEvent.MembershipChanged(BEN, LUNCH, false));
        assertThat(named(subscription)).containsExactlyInAnyOrder(ME, ANN);
        fold.memberChanged(new LiveEvent.MembershipChanged(ME, WORK, false));
        assertThat(named(subscription)).as("the user is always named").containsExactlyInAnyOrder(ME, ANN);

        fold.memberChanged(new LiveEvent.MembershipChanged(ANN, LUNCH, true));
        fold.memberChanged(new LiveEvent.MembershipChanged(ANN, WORK, false));
        assertThat(named(subscription)).as("back in lunch").containsExactlyInAnyOrder(ME, ANN);
        fold.memberChanged(new LiveEvent.MembershipChanged(ANN, LUNCH, false));
        assertThat(named(subscription)).containsExactly(ME);
    }

    @Test
    void a_join_heard_twice_is_undone_by_one_leave() {
        PresenceFold fold = new PresenceFold(ME, List.of(chat(LUNCH, ME, ANN)), clock);
        LocalSubscription subscription = listening(fold);

        fold.memberChanged(new LiveEvent.MembershipChanged(ANN, LUNCH, true));
        fold.memberChanged(new LiveEvent.MembershipChanged(ANN, LUNCH, false));

        assertThat(named(subscription)).containsExactly(ME);
    }

    @Test
    void what_the_store_says_of_the_chats_renames_only_what_changed() {
        ChatSummary lunch = chat(LUNCH, ME, ANN);
        PresenceFold fold = new PresenceFold(ME, List.of(lunch, chat(WORK, ME, BEN)), clock);
        LocalSubscription subscription = listening(fold);

        fold.chatsAre(List.of(lunch, chat(WORK, ME, CY)));
        assertThat(named(subscription)).containsExactlyInAnyOrder(ME, ANN, CY);

        fold.memberChanged(new LiveEvent.MembershipChanged(BEN, LUNCH, true));
        fold.chatsAre(List.of(lunch));
        assertThat(named(subscription)).as("the very list read before, but ben joined since: read afresh")
                .containsExactlyInAnyOrder(ME, ANN);
    }

    @Test
    void the_very_list_read_again_after_someone_left_names_them_again() {
        ChatSummary lunch = chat(LUNCH, ME, ANN, BEN);
        PresenceFold fold = new PresenceFold(ME, List.of(lunch), clock);
        LocalSubscription subscription = listening(fold);

        fold.memberChanged(new LiveEvent.MembershipChanged(ANN, LUNCH, false));
        assertThat(named(subscription)).containsExactlyInAnyOrder(ME, BEN);
        fold.chatsAre(List.of(lunch));

        assertThat(named(subscription)).as("the store lists ann, so the leave heard before is overtaken")
                .containsExactlyInAnyOrder(ME, ANN, BEN);
    }

    @Test
    void news_folded_in_of_someone_the_chats_read_again_no_longer_list_is_forgotten() {
        PresenceFold fold = new PresenceFold(ME, List.of(chat(LUNCH, ME, ANN, BEN)), clock);
        listening(fold);
        fold.admit(presence(ANN, true));
        fold.admit(presence(BEN, true));

        fold.chatsAre(List.of(chat(LUNCH, ME, BEN)));

        fold.wokenUp();
        assertThat(fold.takeIfDue()).contains(new LiveSignal.Presence(Set.of(BEN), Set.of()));
    }

    @Test
    void news_folded_in_before_the_fold_was_detached_is_forgotten_once_the_chats_no_longer_list_them() {
        PresenceFold fold = new PresenceFold(ME, List.of(chat(LUNCH, ME, ANN)), clock);
        LocalSubscription subscription = listening(fold);
        fold.admit(presence(ANN, true));
        subscription.close();

        fold.chatsAre(List.of());

        fold.wokenUp();
        assertThat(fold.takeIfDue()).as("ann shares no chat any more").isEmpty();
    }

    @Test
    void a_user_in_no_chat_still_hears_its_own_presence_and_leaves_nothing_behind() {
        PresenceFold fold = new PresenceFold(ME, List.of(), clock);
        LocalSubscription subscription = listening(fold);

        assertThat(named(subscription)).containsExactly(ME);
        assertThat(fold.admit(presence(ME, true))).as("its own news wakes its reader")
                .isEqualTo(new LiveSignal.Presence(Set.of(), Set.of()));

        subscription.close();
        assertThat(multiplexer.peopleListenedFor()).isZero();
    }

    @Test
    void a_fold_told_its_chats_before_it_listens_names_what_it_was_told_last() {
        PresenceFold fold = new PresenceFold(ME, List.of(chat(LUNCH, ME, ANN)), clock);
        fold.chatsAre(List.of(chat(WORK, ME, BEN)));
        fold.memberChanged(new LiveEvent.MembershipChanged(CY, WORK, true));
        LocalSubscription subscription = listening(fold);

        assertThat(named(subscription)).containsExactlyInAnyOrder(ME, BEN, CY);
    }

    @Test
    void on_the_presence_topic_a_fold_is_offered_whom_it_names_and_a_plain_subscriber_everyone()
            throws InterruptedException {
        PresenceFold fold = new PresenceFold(ME, List.of(chat(LUNCH, ME, ANN)), clock);
        LocalSubscription folded = listening(fold);
        folded.add(Channel.PRESENCE);
        LocalSubscription plain = multiplexer.subscribe(List.of(Channel.PRESENCE));
        assertThat(plain.follows(Channel.PRESENCE)).isTrue();
        assertThat(plain.follows(Channel.ofChat(LUNCH))).isFalse();

        channels.publish(Channel.PRESENCE, new LiveEvent.PresenceChanged(CY, true, clock.instant()));
        channels.publish(Channel.PRESENCE, new LiveEvent.PresenceChanged(ANN, true, clock.instant()));

        assertThat(plain.next(WAIT)).contains(presence(CY, true));
        assertThat(plain.next(WAIT)).contains(presence(ANN, true));
        assertThat(folded.next(WAIT)).as("the wake-up for ann; nothing came of cy")
                .contains(new LiveSignal.Presence(Set.of(), Set.of()));
        fold.wokenUp();
        assertThat(fold.takeIfDue()).contains(new LiveSignal.Presence(Set.of(ANN), Set.of()));
    }

    @Test
    void a_closed_multiplexer_forgets_whom_its_subscribers_listened_for() {
        listening(new PresenceFold(ME, List.of(chat(LUNCH, ME, ANN)), clock));
        assertThat(multiplexer.peopleListenedFor()).isEqualTo(2);

        multiplexer.close();

        assertThat(multiplexer.peopleListenedFor()).as("though no subscriber has read its end yet").isZero();
    }

    private LocalSubscription listening(PresenceFold fold) {
        LocalSubscription subscription = multiplexer.subscribe(List.of(), fold);
        fold.listenThrough(subscription);
        return subscription;
    }

    private static Set<UserId> named(LocalSubscription subscription) {
        return Set.of(ME, ANN, BEN, CY).stream().filter(subscription::hearsPresenceOf)
                .collect(Collectors.toSet());
    }

    private LiveSignal.Event presence(UserId who, boolean online) {
        return new LiveSignal.Event(Channel.PRESENCE, new LiveEvent.PresenceChanged(who, online, clock.instant()));
    }

    private static ChatSummary chat(ChatId chat, UserId... members) {
        return new ChatSummary(chat, Set.of(members), Access.PRIVATE, 0, 0);
    }
}
