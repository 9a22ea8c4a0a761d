package dev.pigeonhole.domain.model;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class IdentifiersTest {

    @ParameterizedTest
    @ValueSource(strings = {"alice", "jason22", "a", "A.b_c-9", "827"})
    void accepts_letters_digits_dot_underscore_and_dash(String value) {
        assertThat(UserId.of(value).value()).isEqualToIgnoringCase(value);
        assertThat(ChatId.of(value).value()).isEqualTo(value);
    }

    @org.junit.jupiter.api.Test
    void a_user_name_is_one_person_however_it_is_capitalised() {
        assertThat(UserId.of("Casey")).isEqualTo(UserId.of("casey")).isEqualTo(UserId.of("CASEY"))
                .isEqualTo(UserId.of("cAsey")).hasToString("casey");
        assertThat(UserId.of("A.b_c-9").value()).isEqualTo("a.b_c-9");
        assertThat(UserId.of("Casey").compareTo(UserId.of("casey"))).isZero();
    }

    @org.junit.jupiter.api.Test
    void a_refused_user_name_is_quoted_as_the_caller_spelled_it() {
        assertThatThrownBy(() -> UserId.of("Casey Jones")).isInstanceOf(InvalidIdException.class)
                .hasMessageContaining("'Casey Jones'");
    }

    @org.junit.jupiter.api.Test
    void chat_ids_keep_their_case() {
        assertThat(ChatId.of("Lunch")).isNotEqualTo(ChatId.of("lunch"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "a:b", "{tag}", "a b", "ünïcode", "a/b", "a*", "line\nbreak"})
    void rejects_anything_that_could_break_a_redis_key(String value) {
        assertThatThrownBy(() -> UserId.of(value)).isInstanceOf(InvalidIdException.class)
                .hasMessageContaining("user id");
        assertThatThrownBy(() -> ChatId.of(value)).isInstanceOf(InvalidIdException.class)
                .hasMessageContaining("chat id");
    }

    @org.junit.jupiter.api.Test
    void rejects_more_than_64_characters_and_a_missing_id() {
        assertThat(UserId.of("x".repeat(64)).value()).hasSize(64);
        assertThatThrownBy(() -> UserId.of("x".repeat(65))).isInstanceOf(InvalidIdException.class)
                .hasMessageContaining("1 to 64 characters");
        assertThatThrownBy(() -> ChatId.of(null)).isInstanceOf(InvalidIdException.class)
                .hasMessage("chat id is missing");
    }

    @org.junit.jupiter.api.Test
    void an_error_message_never_echoes_a_huge_or_control_laden_input() {
        assertThatThrownBy(() -> UserId.of("\u0007" + "y".repeat(10_000)))
                .hasMessageNotContaining("\u0007")
                .satisfies(e -> assertThat(e.getMessage()).hasSizeLessThan(300));
    }
}
