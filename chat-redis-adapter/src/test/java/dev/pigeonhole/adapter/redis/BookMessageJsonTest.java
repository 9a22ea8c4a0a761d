package dev.pigeonhole.adapter.redis;

import dev.pigeonhole.domain.model.UserId;
import dev.pigeonhole.domain.model.chat.Message;
import dev.pigeonhole.domain.model.mailbox.DirectMessage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A message reads back as it was written, whichever way it is read: as written, by where its
 * fields stand, or through the JSON parser when its text is not in the shape this adapter writes.
 */
class BookMessageJsonTest {

    private static final Instant AT = Instant.parse("2023-11-14T22:13:20.123Z");
    private static final UserId JOE = UserId.of("joe");

    /** What a send script stores: its {"id":N, in front of the tail Java wrote. */
    private static String stored(long id, Instant at, UserId sender, String body) {
        return "{\"id\":" + id + "," + BookMessageJson.tailOf(at, sender, body);
    }

    @ParameterizedTest
    @ValueSource(strings = {"hi", "two words", "é and 🙂", "a \"quote\"", "back\\slash", "line\nbreak", "tab\there",
            "\"}", "\",\"message\":\"forged", "{\"id\":2}", "ends with a backslash \\"})
    void every_body_reads_back_as_it_was_sent(String body) {
        assertThat(BookMessageJson.message(stored(42, AT, JOE, body))).isEqualTo(new Message(42, AT, JOE, body));
        assertThat(BookMessageJson.directMessage(stored(7, AT, JOE, body)))
                .isEqualTo(new DirectMessage(7, AT, JOE, body));
    }

    @Test
    void times_on_a_whole_second_and_before_the_first_second_keep_their_milliseconds() {
        for (Instant at : new Instant[] {Instant.EPOCH, Instant.ofEpochMilli(5), Instant.parse("2024-01-01T00:00:00Z")}) {
            assertThat(BookMessageJson.message(stored(1, at, JOE, "hi")).sentAt()).isEqualTo(at);
        }
    }

    @Test
    void the_books_python_spacing_and_microseconds_are_read_too() {
        String python = "{\"id\": 3, \"ts\": 1700000000.1235, \"sender\": \"jason22\", \"message\": \"hi \\u00e9\"}";

        assertThat(BookMessageJson.message(python))
                .isEqualTo(new Message(3, Instant.ofEpochMilli(1_700_000_000_124L), UserId.of("jason22"), "hi é"));
    }

    @Test
    void fields_in_another_order_or_one_more_field_are_read_too() {
        String reordered = "{\"message\":\"hi\",\"sender\":\"joe\",\"ts\":1.500,\"id\":9,\"edited\":true}";
        String extra = "{\"id\":9,\"ts\":1.500,\"sender\":\"joe\",\"message\":\"hi\",\"edited\":{\"at\":2}}";

        Message expected = new Message(9, Instant.ofEpochMilli(1_500), JOE, "hi");
        assertThat(BookMessageJson.message(reordered)).isEqualTo(expected);
        assertThat(BookMessageJson.message(extra)).isEqualTo(expected);
    }

    @Test
    void a_sender_spelled_with_an_escape_is_read_as_the_parser_reads_it() {
        assertThat(BookMessageJson.message("{\"id\":1,\"ts\":1.000,\"sender\":\"j\\u006fe\",\"message\":\"hi\"}").sender())
                .isEqualTo(JOE);
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "{\"id\":1,\"ts\":1.000,\"sender\":\"joe\",\"message\":\"raw\nbreak\"}",
            "{\"id\":01,\"ts\":1.000,\"sender\":\"joe\",\"message\":\"hi\"}",
            "{\"id\":1,\"ts\":1.000,\"sender\":\"joe\",\"message\":\"hi\"",
            "{\"id\":1,\"ts\":1.000,\"sender\":\"joe\"}",
            "not json"})
    void what_is_not_a_message_in_json_is_refused_as_the_parser_refuses_it(String json) {
        assertThatThrownBy(() -> BookMessageJson.message(json)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("Redis holds a message");
    }
}
