package dev.pigeonhole.domain.model.chat;

import dev.pigeonhole.domain.model.ChatFullException;
import dev.pigeonhole.domain.model.ChatId;
import dev.pigeonhole.domain.model.InvalidInputException;
import dev.pigeonhole.domain.model.NotAMemberException;
import dev.pigeonhole.domain.model.RateLimitedException;
import dev.pigeonhole.domain.model.UnknownChatException;
import dev.pigeonhole.domain.model.UserId;
import dev.pigeonhole.domain.model.limits.Limits;
import dev.pigeonhole.domain.model.limits.RateLimit;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.function.Function;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * The rules of a group chat, on the aggregate alone. Every store is held to the same answers by
 * the contract suite; here each rule is one sentence, with the smallest example that shows it.
 */
class ChatTest {

    private static final ChatId LUNCH = ChatId.of("lunch");
    private static final UserId ALICE = UserId.of("alice");
    private static final UserId BOB = UserId.of("bob");
    private static final UserId CAROL = UserId.of("carol");
    private static final UserId DAN = UserId.of("dan");
    private static final Instant T0 = Instant.parse("2026-11-21T10:00:00Z");
    private static final Limits LIMITS = Limits.DEFAULTS.withMaxMembers(3).withMaxRetained(4);

    /** The messages a store would keep: everything sent, of which the chat's window says what is held. */
    private final List<Message> stored = new ArrayList<>();
    private Chat chat = new Chat(LUNCH, LIMITS);
    private final MessageLog log = (after, limit) -> stored.stream()
            .filter(m -> m.id() > after && m.id() >= chat.history().firstAvailableId())
            .limit(limit).toList();
    private int ticks;

    private Instant at() {
        return T0.plusMillis(++ticks);
    }

    private Opened openWithBob() {
        Opened opened = chat.open(ALICE, Set.of(BOB), Access.PRIVATE, "hi bob", at());
        stored.add(opened.message());
        return opened;
    }

    private Message send(UserId sender, String body) {
        Sent sent = chat.send(sender, body, at(), Optional.empty());
        if (!sent.repeat()) {
            stored.add(sent.message());
        }
        return sent.message();
    }

    private long cursorOf(UserId member) {
        return chat.summaryFor(member).cursor();
    }

    @Nested
    class Opening {

        @Test
        void every_member_starts_at_zero_and_the_creator_is_past_its_own_first_message() {
            Opened opened = openWithBob();

            assertThat(opened.message().id()).isEqualTo(1);
            assertThat(opened.members()).containsExactlyInAnyOrder(ALICE, BOB);
            assertThat(cursorOf(ALICE)).isEqualTo(1);
            assertThat(cursorOf(BOB)).isZero();
        }

        @Test
        void the_creator_counts_once_whether_it_lists_itself_or_not() {
            Opened opened = chat.open(ALICE, Set.of(ALICE, BOB, CAROL), Access.PRIVATE, "hi", at());

            assertThat(opened.members()).hasSize(3);
        }

        @Test
        void more_members_than_the_limit_is_bad_input_and_opens_nothing() {
            assertThatExceptionOfType(InvalidInputException.class)
                    .isThrownBy(() -> chat.open(ALICE, Set.of(BOB, CAROL, DAN), Access.PRIVATE, "hi", at()))
                    .withMessage("a chat may have at most 3 members; this one would have 4");

            assertThatExceptionOfType(UnknownChatException.class).isThrownBy(() -> chat.join(BOB, BOB));
        }

        @Test
        void a_chat_opens_once() {
            openWithBob();

            assertThatIllegalStateException().isThrownBy(() -> chat.open(ALICE, Set.of(), Access.PRIVATE, "again", at()));
        }

        @Test
        void a_chat_not_yet_opened_is_unknown_to_every_operation() {
            assertThatExceptionOfType(UnknownChatException.class)
                    .isThrownBy(() -> chat.send(ALICE, "hi", at(), Optional.empty()));
            assertThatExceptionOfType(UnknownChatException.class).isThrownBy(() -> chat.acknowledge(ALICE, 0));
            assertThatExceptionOfType(UnknownChatException.class).isThrownBy(() -> chat.join(ALICE, ALICE));
            assertThatExceptionOfType(UnknownChatException.class).isThrownBy(() -> chat.leave(ALICE));
            assertThatExceptionOfType(UnknownChatException.class).isThrownBy(() -> chat.summaryFor(ALICE));
            assertThat(chat.isMember(ALICE)).isFalse();
        }
    }

    @Nested
    class Sending {

        @Test
        void ids_are_handed_out_one_by_one_with_no_gaps() {
            openWithBob();

            assertThat(send(BOB, "two").id()).isEqualTo(2);
            assertThat(send(ALICE, "three").id()).isEqualTo(3);
            assertThat(chat.history()).isEqualTo(new HistoryWindow(1, 3));
        }

        @Test
        void a_sender_who_had_seen_everything_moves_past_its_own_message() {
            openWithBob();
            chat.acknowledge(BOB, 1);

            send(BOB, "two");

            assertThat(cursorOf(BOB)).isEqualTo(2);
        }

        @Test
        void a_sender_behind_on_the_others_keeps_its_cursor_so_nothing_is_skipped() {
            openWithBob();

            send(BOB, "two");

            assertThat(cursorOf(BOB)).isZero();
            assertThat(chat.pending(BOB, 10, log).messages()).extracting(Message::id).containsExactly(1L, 2L);
        }

        @Test
        void only_members_send() {
            openWithBob();

            assertThatExceptionOfType(UnknownChatException.class)
                    .isThrownBy(() -> chat.send(CAROL, "let me in", at(), Optional.empty()));
            assertThat(chat.history().lastId()).isEqualTo(1);
        }

        @Test
        void a_non_member_of_an_open_chat_is_told_it_is_not_a_member() {
            chat.open(ALICE, Set.of(), Access.OPEN, "all welcome", at());

            assertThatExceptionOfType(NotAMemberException.class)
                    .isThrownBy(() -> chat.send(CAROL, "hello?", at(), Optional.empty()));
            assertThat(chat.history().lastId()).isEqualTo(1);
        }

        @Test
        void a_time_finer_than_a_millisecond_is_refused_as_a_bug_and_changes_nothing() {
            openWithBob();

            assertThatIllegalArgumentException()
                    .isThrownBy(() -> chat.send(BOB, "precise", T0.plusNanos(1_234_567), Optional.empty()))
                    .withMessageContaining("MillisecondClock");
            assertThat(chat.history().lastId()).isEqualTo(1);
        }

        @Test
        void a_send_announces_its_message() {
            openWithBob();

            Sent sent = chat.send(BOB, "two", at(), Optional.empty());

            assertThat(sent.repeat()).isFalse();
        }

        @Test
        void retention_drops_the_oldest_messages_read_or_not_and_a_reader_behind_is_told_of_the_gap() {
            openWithBob();
            for (int i = 2; i <= 6; i++) {
                send(ALICE, "message " + i);
            }

            assertThat(chat.history()).isEqualTo(new HistoryWindow(3, 6));
            PendingChat pending = chat.pending(BOB, 10, log);
            assertThat(pending.gap()).isTrue();
            assertThat(pending.unread()).isEqualTo(6);
            assertThat(pending.messages()).extracting(Message::id).containsExactly(3L, 4L, 5L, 6L);
            assertThat(pending.firstAvailableId()).isEqualTo(3);
        }
    }

    @Nested
    class SendingUnderAKey {

        private final IdempotencyKey key = IdempotencyKey.of("retry-1");

        @Test
        void a_repeat_answers_the_first_message_and_stores_nothing() {
            openWithBob();
            Sent first = chat.send(BOB, "once", at(), Optional.of(key));

            Sent again = chat.send(BOB, "once", at(), Optional.of(key));

            assertThat(again.repeat()).isTrue();
            assertThat(again.message()).isEqualTo(first.message());
            assertThat(chat.history().lastId()).isEqualTo(2);
        }

        @Test
        void a_key_reused_for_another_body_is_refused() {
            openWithBob();
            chat.send(BOB, "once", at(), Optional.of(key));

            assertThatExceptionOfType(InvalidInputException.class)
                    .isThrownBy(() -> chat.send(BOB, "something else", at(), Optional.of(key)))
                    .withMessageContaining("idempotency key retry-1 was used for a different message in chat lunch");
        }

        @Test
        void each_sender_has_its_own_keys() {
            openWithBob();
            chat.send(BOB, "bob's", at(), Optional.of(key));

            Sent alices = chat.send(ALICE, "alice's", at(), Optional.of(key));

            assertThat(alices.repeat()).isFalse();
            assertThat(alices.message().id()).isEqualTo(3);
        }

        @Test
        void a_key_is_forgotten_once_its_window_closes() {
            openWithBob();
            Instant sentAt = at();
            chat.send(BOB, "once", sentAt, Optional.of(key));

            Sent later = chat.send(BOB, "once", sentAt.plus(IdempotencyKey.WINDOW), Optional.of(key));

            assertThat(later.repeat()).isFalse();
            assertThat(later.message().id()).isEqualTo(3);
        }

        @Test
        void a_repeat_inside_the_window_still_answers_after_retention_dropped_the_message() {
            openWithBob();
            Sent first = chat.send(BOB, "once", at(), Optional.of(key));
            for (int i = 0; i < 5; i++) {
                send(ALICE, "filler " + i);
            }

            Sent again = chat.send(BOB, "once", at().plus(Duration.ofHours(23)), Optional.of(key));

            assertThat(chat.history().firstAvailableId()).isGreaterThan(first.message().id());
            assertThat(again.message()).isEqualTo(first.message());
        }

        @Test
        void a_member_who_left_cannot_replay() {
            openWithBob();
            chat.send(BOB, "once", at(), Optional.of(key));
            chat.leave(BOB);

            assertThatExceptionOfType(UnknownChatException.class)
                    .isThrownBy(() -> chat.send(BOB, "once", at(), Optional.of(key)));
        }

        @Test
        void the_chat_remembers_no_more_keys_than_it_retains_messages_the_soonest_to_close_going_first() {
            openWithBob();
            Instant first = at();
            chat.send(BOB, "oldest", first, Optional.of(IdempotencyKey.of("k0")));
            for (int k = 1; k <= LIMITS.maxRetained(); k++) {
                chat.send(BOB, "body " + k, at(), Optional.of(IdempotencyKey.of("k" + k)));
            }

            Sent oldestAgain = chat.send(BOB, "oldest", at(), Optional.of(IdempotencyKey.of("k0")));
            Sent newestAgain = chat.send(BOB, "body 4", at(), Optional.of(IdempotencyKey.of("k4")));

            assertThat(oldestAgain.repeat()).as("k0 was forgotten to keep four keys").isFalse();
            assertThat(newestAgain.repeat()).isTrue();
        }

        @Test
        void a_repeat_is_rebuilt_from_the_id_the_time_and_its_own_body() {
            openWithBob();
            Instant sentAt = at();
            chat.send(BOB, "once", sentAt, Optional.of(key));

            Sent again = chat.send(BOB, "once", sentAt.plusSeconds(30), Optional.of(key));

            assertThat(again.message()).isEqualTo(new Message(2, sentAt, BOB, "once"));
        }
    }

    @Nested
    class SendingWithinARate {

        private final RateLimit threeAnHour = new RateLimit(3, Duration.ofHours(1));

        @Test
        void a_member_sends_its_burst_then_is_refused_and_nothing_changes() {
            openWithBob();
            Instant now = at();
            for (int i = 1; i <= 3; i++) {
                chat.send(BOB, "ok " + i, now, Optional.empty(), threeAnHour);
            }
            long cursor = cursorOf(BOB);

            assertThatExceptionOfType(RateLimitedException.class)
                    .isThrownBy(() -> chat.send(BOB, "one too many", now, Optional.empty(), threeAnHour))
                    .satisfies(refused -> assertThat(refused.retryAfter()).isEqualTo(Duration.ofMinutes(20)));
            assertThat(chat.history().lastId()).isEqualTo(4);
            assertThat(cursorOf(BOB)).isEqualTo(cursor);
        }

        @Test
        void the_bucket_is_the_senders_own_and_refills_by_the_send_time() {
            openWithBob();
            Instant now = at();
            for (int i = 1; i <= 3; i++) {
                chat.send(BOB, "ok " + i, now, Optional.empty(), threeAnHour);
            }

            assertThat(chat.send(ALICE, "alice is not held up", now, Optional.empty(), threeAnHour).repeat()).isFalse();
            assertThat(chat.send(BOB, "twenty minutes on", now.plus(Duration.ofMinutes(20)), Optional.empty(),
                    threeAnHour).message().id()).isEqualTo(6);
        }

        @Test
        void a_repeat_under_a_key_takes_no_token() {
            openWithBob();
            Instant now = at();
            IdempotencyKey key = IdempotencyKey.of("again");
            chat.send(BOB, "keyed", now, Optional.of(key), threeAnHour);
            chat.send(BOB, "two", now, Optional.empty(), threeAnHour);
            chat.send(BOB, "three", now, Optional.empty(), threeAnHour);

            assertThat(chat.send(BOB, "keyed", now, Optional.of(key), threeAnHour).repeat()).isTrue();
        }

        @Test
        void leaving_and_coming_back_does_not_refill_the_bucket() {
            openWithBob();
            Instant now = at();
            for (int i = 1; i <= 3; i++) {
                chat.send(BOB, "ok " + i, now, Optional.empty(), threeAnHour);
            }
            chat.leave(BOB);
            chat.join(ALICE, BOB);

            assertThatExceptionOfType(RateLimitedException.class)
                    .isThrownBy(() -> chat.send(BOB, "back", now, Optional.empty(), threeAnHour));
        }
    }

    @Nested
    class Acknowledging {

        @Test
        void a_cursor_moves_forward_only() {
            openWithBob();
            send(ALICE, "two");

            assertThat(chat.acknowledge(BOB, 2)).isEqualTo(2);
            assertThat(chat.acknowledge(BOB, 1)).isEqualTo(2);
            assertThat(cursorOf(BOB)).isEqualTo(2);
        }

        @Test
        void what_every_member_has_seen_is_dropped() {
            openWithBob();
            send(ALICE, "two");

            chat.acknowledge(BOB, 1);

            assertThat(chat.history()).isEqualTo(new HistoryWindow(2, 2));
        }

        @Test
        void beyond_the_last_id_is_refused_and_moves_nothing() {
            openWithBob();

            assertThatExceptionOfType(InvalidInputException.class).isThrownBy(() -> chat.acknowledge(BOB, 2))
                    .withMessage("cannot acknowledge up to 2 in chat lunch: its ids run from 1 to its last id, 1");
            assertThat(cursorOf(BOB)).isZero();
        }

        @Test
        void a_user_who_is_not_a_member_is_refused_before_its_number_is_looked_at() {
            openWithBob();

            assertThatExceptionOfType(UnknownChatException.class).isThrownBy(() -> chat.acknowledge(CAROL, 99));
            assertThat(chat.isMember(CAROL)).isFalse();
        }

        @Test
        void no_further_than_the_cursor_changes_nothing_so_a_store_has_nothing_to_write() {
            chat.open(ALICE, Set.of(), Access.PRIVATE, "a note to self", at());
            ChatSnapshot before = chat.snapshot();

            assertThat(chat.acknowledge(ALICE, 1)).isEqualTo(1);
            assertThat(chat.snapshot()).isEqualTo(before);
        }

        @Test
        void a_batch_checks_every_chat_before_it_moves_any_cursor() {
            openWithBob();
            send(ALICE, "two");
            Chat later = new Chat(ChatId.of("match"), LIMITS);
            later.open(ALICE, Set.of(BOB), Access.PRIVATE, "kick-off", at());
            SortedMap<ChatId, Long> upTo = new TreeMap<>(Map.of(LUNCH, 2L, later.id(), 2L));
            Map<ChatId, Chat> held = Map.of(LUNCH, chat, later.id(), later);

            // "lunch" comes first and is fine; "match" has only id 1: neither moves.
            assertThatExceptionOfType(InvalidInputException.class)
                    .isThrownBy(() -> Chat.acknowledgeAll(BOB, upTo, id -> Optional.ofNullable(held.get(id))))
                    .withMessageContaining("chat match");
            assertThat(cursorOf(BOB)).isZero();

            upTo.put(later.id(), 1L);
            Chat.acknowledgeAll(BOB, upTo, id -> Optional.ofNullable(held.get(id)));
            assertThat(cursorOf(BOB)).isEqualTo(2);
            assertThat(later.summaryFor(BOB).cursor()).isEqualTo(1);
        }

        @Test
        void a_batch_naming_a_chat_the_store_does_not_hold_is_refused_for_it() {
            openWithBob();
            SortedMap<ChatId, Long> upTo = new TreeMap<>(Map.of(LUNCH, 1L, ChatId.of("nowhere"), 1L));

            assertThatExceptionOfType(UnknownChatException.class)
                    .isThrownBy(() -> Chat.acknowledgeAll(BOB, upTo, id -> Optional.ofNullable(id.equals(LUNCH) ? chat : null)))
                    .withMessage("chat nowhere does not exist");
            assertThat(cursorOf(BOB)).isZero();
        }
    }

    @Nested
    class Membership {

        @Test
        void a_new_member_starts_at_the_last_id_with_nothing_unread() {
            openWithBob();
            send(BOB, "two");

            Joined joined = chat.join(ALICE, CAROL);

            assertThat(joined.added()).isTrue();
            assertThat(cursorOf(CAROL)).isEqualTo(2);
            assertThat(chat.pending(CAROL, 10, log).unread()).isZero();
        }

        @Test
        void joining_again_keeps_the_cursor() {
            openWithBob();
            send(ALICE, "two");

            Joined again = chat.join(BOB, BOB);

            assertThat(again.added()).isFalse();
            assertThat(cursorOf(BOB)).isZero();
        }

        @Test
        void a_full_chat_refuses_a_newcomer_but_never_a_member() {
            chat.open(ALICE, Set.of(BOB, CAROL), Access.PRIVATE, "three of us", at());

            assertThatExceptionOfType(ChatFullException.class).isThrownBy(() -> chat.join(ALICE, DAN));
            assertThat(chat.join(ALICE, CAROL).added()).isFalse();
        }

        @Test
        void a_leaver_no_longer_holds_back_what_the_others_have_seen() {
            openWithBob();
            send(ALICE, "two");

            Left left = chat.leave(BOB);

            assertThat(left.chatDeleted()).isFalse();
            assertThat(chat.history()).isEqualTo(new HistoryWindow(3, 2));
        }

        @Test
        void only_a_member_leaves() {
            openWithBob();

            assertThatExceptionOfType(UnknownChatException.class).isThrownBy(() -> chat.leave(CAROL));
        }

        @Test
        void the_last_member_leaving_deletes_the_chat_for_good() {
            openWithBob();
            chat.leave(BOB);

            Left last = chat.leave(ALICE);

            assertThat(last.chatDeleted()).isTrue();
            assertThatExceptionOfType(UnknownChatException.class).isThrownBy(() -> chat.join(ALICE, ALICE));
            assertThatExceptionOfType(UnknownChatException.class)
                    .isThrownBy(() -> chat.send(ALICE, "anyone?", at(), Optional.empty()));
            assertThatExceptionOfType(UnknownChatException.class).isThrownBy(() -> chat.acknowledge(ALICE, 1));
            assertThat(chat.isMember(ALICE)).isFalse();
        }

        @Test
        void an_open_chat_whose_last_member_left_is_unknown_even_to_those_who_came_in_by_themselves() {
            chat.open(ALICE, Set.of(BOB), Access.OPEN, "anyone welcome", at());
            chat.leave(BOB);
            chat.leave(ALICE);

            assertThatExceptionOfType(UnknownChatException.class).isThrownBy(() -> chat.join(CAROL, CAROL));
            assertThatExceptionOfType(UnknownChatException.class)
                    .isThrownBy(() -> chat.send(ALICE, "anyone?", at(), Optional.empty()));
            assertThat(chat.isMember(CAROL)).isFalse();
        }

        @Test
        void a_summary_shows_every_member_the_cursor_and_the_last_id() {
            openWithBob();
            send(BOB, "two");

            assertThat(chat.summaryFor(BOB)).isEqualTo(new ChatSummary(LUNCH, Set.of(ALICE, BOB), Access.PRIVATE, 0, 2));
            assertThat(chat.summaryFor(BOB).unread()).isEqualTo(2);
        }
    }

    @Nested
    class ComingIn {

        @Test
        void a_member_brings_someone_into_a_private_chat() {
            openWithBob();

            assertThat(chat.join(BOB, CAROL).added()).isTrue();
            assertThat(chat.isMember(CAROL)).isTrue();
        }

        @Test
        void no_one_comes_into_a_private_chat_by_itself() {
            openWithBob();

            assertThatExceptionOfType(UnknownChatException.class).isThrownBy(() -> chat.join(CAROL, CAROL));
            assertThat(chat.isMember(CAROL)).isFalse();
        }

        @Test
        void anyone_comes_into_an_open_chat_by_itself() {
            chat.open(ALICE, Set.of(), Access.OPEN, "all welcome", at());

            assertThat(chat.join(CAROL, CAROL).added()).isTrue();
            assertThat(chat.summaryFor(CAROL).access()).isEqualTo(Access.OPEN);
        }

        @Test
        void someone_outside_brings_no_one_in_even_to_an_open_chat() {
            chat.open(ALICE, Set.of(), Access.OPEN, "all welcome", at());

            assertThatExceptionOfType(NotAMemberException.class).isThrownBy(() -> chat.join(DAN, CAROL));
            assertThat(chat.isMember(CAROL)).isFalse();
        }

        @Test
        void who_asks_is_checked_before_whether_there_is_room() {
            chat.open(ALICE, Set.of(BOB, CAROL), Access.PRIVATE, "three of us", at());

            assertThatExceptionOfType(UnknownChatException.class).isThrownBy(() -> chat.join(DAN, DAN));
        }

        @Test
        void a_newcomer_reads_nothing_sent_before_it_came_in() {
            openWithBob();
            send(BOB, "two");

            chat.join(ALICE, CAROL);

            MessagePage history = chat.read(CAROL, 0, 10, log);
            assertThat(history.messages()).isEmpty();
            assertThat(history.gap()).isFalse();
            assertThat(chat.historyFor(CAROL)).isEqualTo(new HistoryWindow(3, 2));
            Message three = send(ALICE, "three");
            assertThat(chat.read(CAROL, 1, 10, log).messages()).containsExactly(three);
        }

        @Test
        void the_first_members_read_from_the_first_message() {
            Message first = openWithBob().message();

            assertThat(chat.read(BOB, 0, 10, log).messages()).containsExactly(first);
            assertThat(chat.historyFor(BOB)).isEqualTo(chat.history());
        }
    }

    @Nested
    class Reading {

        @Test
        void pending_pages_from_the_cursor_and_counts_everything_unread() {
            openWithBob();
            send(ALICE, "two");
            send(ALICE, "three");

            PendingChat pending = chat.pending(BOB, 2, log);

            assertThat(pending.messages()).extracting(Message::id).containsExactly(1L, 2L);
            assertThat(pending.unread()).isEqualTo(3);
            assertThat(pending.gap()).isFalse();
        }

        @Test
        void history_pages_from_any_id_and_says_when_the_next_one_is_gone() {
            openWithBob();
            for (int i = 2; i <= 6; i++) {
                send(ALICE, "message " + i);
            }

            assertThat(chat.read(BOB, 4, 10, log)).isEqualTo(new MessagePage(stored.subList(4, 6), false, 3, 6));
            MessagePage fromStart = chat.read(BOB, 0, 2, log);
            assertThat(fromStart.gap()).isTrue();
            assertThat(fromStart.messages()).extracting(Message::id).containsExactly(3L, 4L);
        }

        @Test
        void only_members_read() {
            openWithBob();

            assertThatExceptionOfType(UnknownChatException.class).isThrownBy(() -> chat.read(CAROL, 0, 10, log));
            assertThatExceptionOfType(UnknownChatException.class).isThrownBy(() -> chat.pending(CAROL, 10, log));
        }

        @Test
        void to_a_non_member_a_private_chat_answers_word_for_word_as_one_that_was_never_opened() {
            openWithBob();
            Chat never = new Chat(LUNCH, LIMITS);
            List<Function<Chat, Object>> asks = List.of(
                    c -> c.read(CAROL, 0, 10, log),
                    c -> c.pending(CAROL, 10, log),
                    c -> c.send(CAROL, "hello?", at(), Optional.empty()),
                    c -> c.acknowledge(CAROL, 1),
                    c -> c.join(CAROL, CAROL),
                    c -> c.join(CAROL, DAN),
                    c -> c.leave(CAROL),
                    c -> c.summaryFor(CAROL));

            for (var ask : asks) {
                Throwable existing = catchThrowable(() -> ask.apply(chat));
                Throwable missing = catchThrowable(() -> ask.apply(never));
                assertThat(existing).isInstanceOf(UnknownChatException.class)
                        .hasMessage(missing.getMessage()).hasSameClassAs(missing);
            }
            assertThat(chat.isMember(CAROL)).isFalse();
            assertThat(chat.history().lastId()).isEqualTo(1);
        }
    }

    @Nested
    class AtRest {

        @Test
        void a_chat_restored_from_its_snapshot_answers_every_operation_as_the_original_would() {
            openWithBob();
            Instant now = at();
            RateLimit twoAnHour = new RateLimit(2, Duration.ofHours(1));
            chat.send(BOB, "keyed", now, Optional.of(IdempotencyKey.of("k")), twoAnHour);
            chat.join(ALICE, CAROL);
            chat.acknowledge(BOB, 2);

            Chat restored = Chat.restore(chat.snapshot(), LIMITS);

            assertThat(restored.snapshot()).isEqualTo(chat.snapshot());
            assertThat(restored.historyFor(CAROL)).as("the join point is kept").isEqualTo(chat.historyFor(CAROL));
            assertThat(restored.send(BOB, "keyed", now, Optional.of(IdempotencyKey.of("k")), twoAnHour).repeat())
                    .as("the key is remembered").isTrue();
            restored.send(BOB, "second", now, Optional.empty(), twoAnHour);
            assertThatExceptionOfType(RateLimitedException.class).as("the bucket is kept")
                    .isThrownBy(() -> restored.send(BOB, "third", now, Optional.empty(), twoAnHour));
            assertThat(restored.summaryFor(BOB).cursor()).as("his own message moved it").isEqualTo(3);
        }

        @Test
        void keys_whose_window_closed_and_buckets_full_again_are_forgotten_by_the_next_send_that_asks() {
            openWithBob();
            Instant now = at();
            RateLimit fourASecond = new RateLimit(4, Duration.ofSeconds(1));
            chat.send(BOB, "keyed", now, Optional.of(IdempotencyKey.of("k")), fourASecond);
            chat.send(ALICE, "rated", now, Optional.empty(), fourASecond);
            assertThat(chat.snapshot().keyedSends()).hasSize(1);
            assertThat(chat.snapshot().sendBuckets()).containsOnlyKeys(BOB, ALICE);

            chat.send(ALICE, "a second later", now.plusMillis(250), Optional.empty(), fourASecond);
            assertThat(chat.snapshot().sendBuckets()).as("bob's bucket is full again, alice's is not")
                    .containsOnlyKeys(ALICE);
            chat.send(ALICE, "a day later", now.plus(IdempotencyKey.WINDOW), Optional.of(IdempotencyKey.of("k2")),
                    fourASecond);

            assertThat(chat.snapshot().keyedSends()).as("k's window closed; k2 is new").containsOnlyKeys(
                    IdempotencyKey.of("k2").scopedTo(ALICE));
        }

        @Test
        void a_send_forgets_at_most_a_hundred_closed_keys_so_none_pays_for_a_backlog() {
            chat = new Chat(LUNCH, Limits.DEFAULTS);
            chat.open(ALICE, Set.of(), Access.PRIVATE, "hi", at());
            Instant now = at();
            for (int k = 0; k < 150; k++) {
                chat.send(ALICE, "m" + k, now, Optional.of(IdempotencyKey.of("k" + k)));
            }

            chat.send(ALICE, "much later", now.plus(IdempotencyKey.WINDOW), Optional.of(IdempotencyKey.of("new")));

            assertThat(chat.snapshot().keyedSends()).hasSize(150 - 100 + 1);
        }

        @Test
        void a_key_used_again_after_its_window_closed_answers_for_its_new_send_while_a_backlog_waits() {
            chat = new Chat(LUNCH, Limits.DEFAULTS);
            chat.open(ALICE, Set.of(), Access.PRIVATE, "hi", at());
            Instant now = at();
            for (int k = 0; k < KeyedSends.FORGET_AT_MOST; k++) {
                chat.send(ALICE, "m" + k, now, Optional.of(IdempotencyKey.of("k" + k)));
            }
            IdempotencyKey last = IdempotencyKey.of("z");
            chat.send(ALICE, "first", now, Optional.of(last));
            Instant closed = now.plus(IdempotencyKey.WINDOW);

            // The send under z forgets a hundred closed keys but not z's first window: it comes last.
            Sent again = chat.send(ALICE, "again", closed, Optional.of(last));
            Sent retry = chat.send(ALICE, "again", closed.plusMillis(1), Optional.of(last));

            assertThat(again.repeat()).as("z's first window had closed").isFalse();
            assertThat(retry.repeat()).isTrue();
            assertThat(retry.message()).isEqualTo(again.message());
        }

        @Test
        void a_chat_whose_last_member_left_says_so_at_rest() {
            openWithBob();
            chat.leave(ALICE);
            chat.leave(BOB);

            ChatSnapshot kept = chat.snapshot();

            assertThat(kept.deleted()).isTrue();
            assertThat(kept.members()).isEmpty();
            assertThatExceptionOfType(UnknownChatException.class)
                    .isThrownBy(() -> Chat.restore(kept, LIMITS).join(ALICE, ALICE));
        }
    }
}
