package dev.pigeonhole.domain.model.mailbox;

import dev.pigeonhole.domain.model.InvalidInputException;
import dev.pigeonhole.domain.model.MailboxFullException;
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
        Delivered delivered = mailbox.deliver(ALICE, body, T0.plusMillis(++ticks));
        kept.add(delivered.message());
        return delivered;
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
            assertThatIllegalArgumentException().isThrownBy(() -> mailbox.deliver(ALICE, "hi", T0.plusNanos(1)));
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

            assertThat(restored.snapshot()).isEqualTo(new MailboxSnapshot(BOB, 2, 1));
            assertThat(restored.deliver(ALICE, "three", T0).message().id()).isEqualTo(3);
            assertThat(restored.depth()).isEqualTo(2);
        }

        @Test
        void a_snapshot_acknowledging_outside_its_ids_is_refused() {
            assertThatIllegalArgumentException().isThrownBy(() -> new MailboxSnapshot(BOB, 2, 3));
            assertThatIllegalArgumentException().isThrownBy(() -> new MailboxSnapshot(BOB, 2, -1));
        }
    }
}
