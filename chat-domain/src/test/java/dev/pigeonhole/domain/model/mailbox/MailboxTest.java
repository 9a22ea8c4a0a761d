package dev.pigeonhole.domain.model.mailbox;

import dev.pigeonhole.domain.model.InvalidInputException;
import dev.pigeonhole.domain.model.MailboxFullException;
import dev.pigeonhole.domain.model.RateLimitedException;
import dev.pigeonhole.domain.model.UserId;
import dev.pigeonhole.domain.model.limits.Limits;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class MailboxTest {

    private static final UserId BOB = UserId.of("bob");
    private static final UserId ALICE = UserId.of("alice");
    private static final Instant T0 = Instant.parse("2026-11-21T10:00:00Z");
    private static final Limits THREE = Limits.DEFAULTS.withMailboxCapacity(3);

    private final Mailbox mailbox = new Mailbox(BOB, THREE);
    /** The messages as the plainest store keeps them: the aggregate says which are still held. */
    private final List<DirectMessage> kept = new ArrayList<>();
    private final MailboxLog log = (after, limit) -> kept.stream()
            .filter(message -> message.id() > after).limit(limit).toList();
    private int ticks;

    private Delivered deliver(String body) {
        Delivered delivered = mailbox.deliver(ALICE, body, T0.plusMillis(++ticks), Sender.CO_MEMBER);
        kept.add(delivered.message());
        return delivered;
    }

    @Nested
    class Strangers {

        private final Mailbox roomy = new Mailbox(BOB, Limits.DEFAULTS.withMailboxCapacity(30));

        @Test
        void hold_at_most_a_tenth_of_it_while_co_members_still_deliver() {
            roomy.deliver(ALICE, "1", T0, Sender.STRANGER);
            roomy.deliver(ALICE, "2", T0, Sender.STRANGER);
            roomy.deliver(ALICE, "3", T0, Sender.STRANGER);

            assertThatThrownBy(() -> roomy.deliver(ALICE, "4", T0, Sender.STRANGER))
                    .isInstanceOf(RateLimitedException.class)
                    .hasMessageContaining("3 unread messages from senders who share no chat");
            assertThat(roomy.lastId()).as("a refused delivery takes no id").isEqualTo(3);
            assertThat(roomy.deliver(ALICE, "from a friend", T0, Sender.CO_MEMBER).message().id()).isEqualTo(4);
        }

        @Test
        void get_their_share_back_as_the_owner_acknowledges() {
            roomy.deliver(ALICE, "1", T0, Sender.STRANGER);
            roomy.deliver(ALICE, "2", T0, Sender.CO_MEMBER);
            roomy.deliver(ALICE, "3", T0, Sender.STRANGER);
            roomy.deliver(ALICE, "4", T0, Sender.STRANGER);

            roomy.acknowledge(2);

            assertThat(roomy.snapshot().fromStrangers()).containsExactly(3L, 4L);
            assertThat(roomy.deliver(ALICE, "5", T0, Sender.STRANGER).message().id()).isEqualTo(5);
        }

        @Test
        void are_refused_by_a_full_mailbox_as_by_their_share_so_they_never_learn_it_is_full() {
            deliver("one");
            deliver("two");
            deliver("three");

            assertThatThrownBy(() -> mailbox.deliver(ALICE, "four", T0, Sender.STRANGER))
                    .isInstanceOf(RateLimitedException.class)
                    .hasMessage(Mailbox.strangerRefused(3).getMessage());
            assertThatThrownBy(() -> mailbox.deliver(ALICE, "four", T0, Sender.CO_MEMBER))
                    .isInstanceOf(MailboxFullException.class);
        }

        @Test
        void have_a_share_of_at_least_one_however_small_the_mailbox() {
            assertThat(Mailbox.strangersShare(3)).isEqualTo(1);
            assertThat(Mailbox.strangersShare(1_000)).isEqualTo(100);
        }
    }

    @Nested
    class Delivering {

        @Test
        void each_message_gets_the_next_id_and_the_depth_counts_what_is_held() {
            Delivered first = deliver("one");
            Delivered second = deliver("two");

            assertThat(first).isEqualTo(new Delivered(BOB, new DirectMessage(1, T0.plusMillis(1), ALICE, "one"), 1));
            assertThat(second.message().id()).isEqualTo(2);
            assertThat(second.depth()).isEqualTo(2);
        }

        @Test
        void a_full_mailbox_refuses_and_takes_no_id() {
            deliver("one");
            deliver("two");
            deliver("three");

            assertThatExceptionOfType(MailboxFullException.class).isThrownBy(() -> deliver("four"))
                    .withMessageContaining("bob").withMessageContaining("3 messages");
            assertThat(mailbox.lastId()).isEqualTo(3);
        }

        @Test
        void acknowledging_makes_room_and_ids_go_on_from_where_they_were() {
            deliver("one");
            deliver("two");
            deliver("three");

            mailbox.acknowledge(3);

            assertThat(mailbox.depth()).isZero();
            assertThat(deliver("four").message().id()).as("an emptied mailbox never hands an id out twice")
                    .isEqualTo(4);
        }

        @Test
        void a_time_finer_than_a_millisecond_is_refused_as_a_bug_and_changes_nothing() {
            assertThatIllegalArgumentException().isThrownBy(() -> mailbox.deliver(ALICE, "hi", T0.plusNanos(1), Sender.CO_MEMBER));
            assertThat(mailbox.lastId()).isZero();
        }
    }

    @Nested
    class Reading {

        @Test
        void the_oldest_first_up_to_max_and_nothing_changes() {
            deliver("one");
            deliver("two");
            deliver("three");

            assertThat(mailbox.read(2, log)).extracting(DirectMessage::body).containsExactly("one", "two");
            assertThat(mailbox.read(10, log)).extracting(DirectMessage::body).containsExactly("one", "two", "three");
            assertThat(mailbox.depth()).isEqualTo(3);
        }

        @Test
        void nothing_acknowledged_is_read_again_even_where_a_store_still_keeps_it() {
            deliver("one");
            deliver("two");

            mailbox.acknowledge(1);

            assertThat(mailbox.read(10, log)).extracting(DirectMessage::id).containsExactly(2L);
        }
    }

    @Nested
    class Acknowledging {

        @Test
        void up_to_an_id_lets_go_of_it_and_everything_before() {
            deliver("one");
            deliver("two");
            deliver("three");

            assertThat(mailbox.acknowledge(2)).isEqualTo(2);
            assertThat(mailbox.depth()).isEqualTo(1);
        }

        @Test
        void again_or_an_older_id_changes_nothing() {
            deliver("one");
            deliver("two");
            mailbox.acknowledge(2);

            assertThat(mailbox.acknowledge(1)).isEqualTo(2);
            assertThat(mailbox.acknowledge(2)).isEqualTo(2);
            assertThat(mailbox.acknowledge(0)).isEqualTo(2);
        }

        @Test
        void the_mailbox_says_how_far_it_is_acknowledged_whatever_came_after() {
            deliver("one");
            deliver("two");
            deliver("three");

            mailbox.acknowledge(2);
            mailbox.acknowledge(1);

            assertThat(mailbox.acknowledged()).isEqualTo(2);
            assertThat(mailbox.depth()).isEqualTo(1);
        }

        @Test
        void past_the_last_id_is_refused_and_changes_nothing() {
            deliver("one");

            assertThatExceptionOfType(InvalidInputException.class).isThrownBy(() -> mailbox.acknowledge(2))
                    .withMessage(Mailbox.beyondLastId(BOB, 2, 1).getMessage());
            assertThat(mailbox.acknowledged()).isZero();
        }

        @Test
        void a_mailbox_never_delivered_to_takes_zero_and_refuses_anything_more() {
            assertThat(mailbox.acknowledge(0)).isZero();
            assertThatExceptionOfType(InvalidInputException.class).isThrownBy(() -> mailbox.acknowledge(1))
                    .withMessageContaining("its last id, 0");
        }
    }

    @Nested
    class AtRest {

        @Test
        void a_mailbox_restored_from_its_snapshot_goes_on_as_the_original_would() {
            deliver("one");
            deliver("two");
            mailbox.acknowledge(1);

            Mailbox restored = Mailbox.restore(mailbox.snapshot(), THREE);

            assertThat(restored.snapshot()).isEqualTo(new MailboxSnapshot(BOB, 2, 1, List.of()));
            assertThat(restored.deliver(ALICE, "three", T0, Sender.CO_MEMBER).message().id()).isEqualTo(3);
            assertThat(restored.depth()).isEqualTo(2);
        }

        @Test
        void a_restored_mailbox_is_still_its_owners() {
            Mailbox restored = Mailbox.restore(new MailboxSnapshot(ALICE, 0, 0, List.of()), THREE);

            assertThat(restored.owner()).isEqualTo(ALICE);
            assertThat(mailbox.owner()).isEqualTo(BOB);
        }

        @Test
        void a_snapshot_keeps_which_held_messages_came_from_strangers() {
            Mailbox roomy = new Mailbox(BOB, Limits.DEFAULTS.withMailboxCapacity(20));
            roomy.deliver(ALICE, "one", T0, Sender.STRANGER);
            roomy.deliver(ALICE, "two", T0, Sender.CO_MEMBER);
            roomy.deliver(ALICE, "three", T0, Sender.STRANGER);

            Mailbox restored = Mailbox.restore(roomy.snapshot(), Limits.DEFAULTS.withMailboxCapacity(20));

            assertThat(restored.snapshot()).isEqualTo(new MailboxSnapshot(BOB, 3, 0, List.of(1L, 3L)));
            assertThatThrownBy(() -> restored.deliver(ALICE, "four", T0, Sender.STRANGER))
                    .isInstanceOf(RateLimitedException.class);
            assertThatIllegalArgumentException().as("a stranger's id the mailbox does not hold")
                    .isThrownBy(() -> new MailboxSnapshot(BOB, 3, 1, List.of(1L)));
        }

        @Test
        void a_snapshot_acknowledging_outside_its_ids_is_refused() {
            assertThatIllegalArgumentException().isThrownBy(() -> new MailboxSnapshot(BOB, 2, 3, List.of()));
            assertThatIllegalArgumentException().isThrownBy(() -> new MailboxSnapshot(BOB, 2, -1, List.of()));
        }
    }
}
