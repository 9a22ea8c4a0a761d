package dev.pigeonhole.domain.model.live;

import dev.pigeonhole.domain.model.ChatId;
import dev.pigeonhole.domain.model.InvalidIdException;
import dev.pigeonhole.domain.model.UserId;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ChannelTest {

    @Test
    void a_chat_channel_knows_its_chat_and_the_presence_channel_has_none() {
        Channel channel = Channel.ofChat(ChatId.of("827"));

        assertThat(channel.name()).isEqualTo("chat:827");
        assertThat(channel.chat()).contains(ChatId.of("827"));
        assertThat(Channel.PRESENCE.chat()).isEmpty();
    }

    @Test
    void a_user_channel_knows_its_user_and_is_no_chat_channel() {
        Channel channel = Channel.ofUser(UserId.of("alice"));

        assertThat(channel.name()).isEqualTo("user:alice");
        assertThat(channel.user()).contains(UserId.of("alice"));
        assertThat(channel.chat()).isEmpty();
        assertThat(Channel.ofChat(ChatId.of("827")).user()).isEmpty();
    }

    @ParameterizedTest
    @CsvSource({
            "chat:*,   chat:827,  true",
            "chat:*,   chat:,     true",
            "chat:*,   presence,  false",
            "chat:?,   chat:1,    true",
            "chat:?,   chat:12,   false",
            "*:1*,     chat:15,   true",
            "presence, presence,  true",
            "presence, presences, false",
            "c*t:*7,   chat:827,  true",
    })
    void a_pattern_matches_star_as_any_run_and_question_mark_as_one_character(String glob, String name,
                                                                              boolean expected) {
        assertThat(new ChannelPattern(glob).matches(new Channel(name))).isEqualTo(expected);
    }

    @Test
    void names_and_patterns_reject_characters_a_store_could_misread() {
        assertThatThrownBy(() -> new Channel("chat {1}")).isInstanceOf(InvalidIdException.class);
        assertThatThrownBy(() -> new ChannelPattern("chat:[ab]")).isInstanceOf(InvalidIdException.class);
        assertThatThrownBy(() -> new Channel("chat:*")).isInstanceOf(InvalidIdException.class);
    }
}
