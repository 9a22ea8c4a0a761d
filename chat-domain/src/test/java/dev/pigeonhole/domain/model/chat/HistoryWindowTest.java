package dev.pigeonhole.domain.model.chat;

import dev.pigeonhole.domain.model.ChatId;
import dev.pigeonhole.domain.model.UserId;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class HistoryWindowTest {

    private static final ChatId CHAT = ChatId.of("lunch");
    private static final Message FIVE = new Message(5, Instant.EPOCH, UserId.of("alice"), "five");

    @Test
    void unread_is_everything_after_the_cursor_and_never_less_than_none() {
        HistoryWindow window = new HistoryWindow(3, 6);

        assertThat(window.unreadAfter(2)).isEqualTo(4);
        assertThat(window.unreadAfter(6)).isZero();
        assertThat(HistoryWindow.unread(9, 6)).isZero();
    }

    @Test
    void a_gap_is_a_message_right_after_the_reader_that_is_no_longer_held() {
        HistoryWindow window = new HistoryWindow(3, 6);

        assertThat(window.gapAfter(1)).isTrue();
        assertThat(window.gapAfter(2)).as("3 is the next one and it is held").isFalse();
        assertThat(window.gapAfter(6)).isFalse();
    }

    @Test
    void when_everything_was_read_and_dropped_there_is_no_gap_at_the_end() {
        HistoryWindow window = new HistoryWindow(7, 6);

        assertThat(window.gapAfter(6)).isFalse();
        assertThat(window.gapAfter(5)).isTrue();
    }

    @Test
    void pending_and_pages_are_built_from_the_same_arithmetic() {
        HistoryWindow window = new HistoryWindow(5, 6);

        assertThat(window.pending(CHAT, 2, List.of(FIVE)))
                .isEqualTo(new PendingChat(CHAT, List.of(FIVE), 4, true, 5, true));
        assertThat(window.pending(CHAT, 2, List.of(FIVE, new Message(6, FIVE.sentAt(), FIVE.sender(), "six"))).more())
                .as("the page reaches the last id").isFalse();
        assertThat(window.pending(CHAT, 6, List.of()).more()).as("nothing unread").isFalse();
        assertThat(window.page(4, List.of(FIVE))).isEqualTo(new MessagePage(List.of(FIVE), false, 5, 6));
    }

    @Test
    void a_window_is_one_run_of_ids_within_those_handed_out() {
        assertThat(new HistoryWindow(1, 0).unreadAfter(0)).as("nothing handed out yet").isZero();
        assertThatIllegalArgumentException().isThrownBy(() -> new HistoryWindow(0, 3));
        assertThatIllegalArgumentException().isThrownBy(() -> new HistoryWindow(5, 3));
        assertThatIllegalArgumentException().isThrownBy(() -> new HistoryWindow(1, -1));
    }

    @Test
    void a_member_who_joined_later_sees_the_window_from_after_its_join_point() {
        HistoryWindow held = new HistoryWindow(3, 10);

        assertThat(held.joinedAt(0)).isEqualTo(held);
        assertThat(held.joinedAt(6)).isEqualTo(new HistoryWindow(7, 10));
        assertThat(held.joinedAt(10)).isEqualTo(new HistoryWindow(11, 10));
    }
}
