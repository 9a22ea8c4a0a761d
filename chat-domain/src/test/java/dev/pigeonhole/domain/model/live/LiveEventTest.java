package dev.pigeonhole.domain.model.live;

import dev.pigeonhole.domain.model.ChatId;
import dev.pigeonhole.domain.model.UserId;
import dev.pigeonhole.domain.model.chat.Access;
import dev.pigeonhole.domain.model.chat.Chat;
import dev.pigeonhole.domain.model.chat.IdempotencyKey;
import dev.pigeonhole.domain.model.chat.Joined;
import dev.pigeonhole.domain.model.chat.Left;
import dev.pigeonhole.domain.model.chat.Opened;
import dev.pigeonhole.domain.model.chat.Sent;
import dev.pigeonhole.domain.model.limits.Limits;
import dev.pigeonhole.domain.model.mailbox.Delivered;
import dev.pigeonhole.domain.model.mailbox.DirectMessage;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.Optional;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/** Which events announce each change a chat or a mailbox answers with. */
class LiveEventTest {

    private static final ChatId LUNCH = ChatId.of("lunch");
    private static final UserId ALICE = UserId.of("alice");
    private static final UserId BOB = UserId.of("bob");
    private static final UserId CAROL = UserId.of("carol");
    private static final Instant AT = Instant.parse("2026-11-21T10:00:00Z");

    private final Chat chat = new Chat(LUNCH, Limits.DEFAULTS);

    @Test
    void an_opening_tells_every_member_in_id_order_and_its_first_message_goes_out_as_a_send() {
        Opened opened = chat.open(BOB, Set.of(ALICE), Access.PRIVATE, "hi", AT);

        assertThat(LiveEvent.announcing(opened)).containsExactly(
                new LiveEvent.MembershipChanged(ALICE, LUNCH, true),
                new LiveEvent.MembershipChanged(BOB, LUNCH, true));
        assertThat(LiveEvent.announcing(opened.first()))
                .containsExactly(new LiveEvent.MessagePosted(LUNCH, opened.message()));
    }

    @Test
    void a_send_is_announced_once_and_its_repeat_not_at_all() {
        chat.open(ALICE, Set.of(BOB), Access.PRIVATE, "hi", AT);
        IdempotencyKey key = IdempotencyKey.of("k1");

        Sent sent = chat.send(BOB, "two", AT, Optional.of(key));
        Sent again = chat.send(BOB, "two", AT, Optional.of(key));

        assertThat(LiveEvent.announcing(sent)).containsExactly(new LiveEvent.MessagePosted(LUNCH, sent.message()));
        assertThat(LiveEvent.announcing(again)).isEmpty();
    }

    @Test
    void a_newcomer_is_announced_and_someone_already_in_is_not() {
        chat.open(ALICE, Set.of(BOB), Access.PRIVATE, "hi", AT);

        Joined joined = chat.join(ALICE, CAROL);
        Joined again = chat.join(BOB, BOB);

        assertThat(LiveEvent.announcing(joined)).containsExactly(new LiveEvent.MembershipChanged(CAROL, LUNCH, true));
        assertThat(LiveEvent.announcing(again)).isEmpty();
    }

    @Test
    void a_leaver_is_announced_as_no_longer_a_member() {
        chat.open(ALICE, Set.of(BOB), Access.PRIVATE, "hi", AT);

        Left left = chat.leave(BOB);

        assertThat(LiveEvent.announcing(left)).containsExactly(new LiveEvent.MembershipChanged(BOB, LUNCH, false));
    }

    @Test
    void a_delivery_is_announced_to_its_recipient() {
        DirectMessage message = new DirectMessage(1, AT, ALICE, "psst");

        assertThat(LiveEvent.announcing(new Delivered(BOB, message, 1)))
                .isEqualTo(new LiveEvent.DirectMessageDelivered(BOB, message));
    }
}
