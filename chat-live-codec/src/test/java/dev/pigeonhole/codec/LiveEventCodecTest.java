package dev.pigeonhole.codec;

import dev.pigeonhole.domain.model.ChatId;
import dev.pigeonhole.domain.model.UserId;
import dev.pigeonhole.domain.model.chat.Message;
import dev.pigeonhole.domain.model.consent.Invitation;
import dev.pigeonhole.domain.model.live.LiveEvent;
import dev.pigeonhole.domain.model.mailbox.DirectMessage;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class LiveEventCodecTest {

    private static final Instant AT = Instant.parse("2026-01-01T00:00:00.123Z");

    @Property(tries = 300)
    void every_event_reads_back_as_it_was_written(@ForAll("events") LiveEvent event) {
        assertThat(LiveEventCodec.decode(LiveEventCodec.encode(event))).isEqualTo(event);
    }

    @Property(tries = 300)
    void an_unnumbered_message_event_given_its_id_is_the_event_written_whole(
            @ForAll("ids") long id, @ForAll("bodies") String body) {
        Message message = new Message(id, AT, UserId.of("alice"), body);

        assertThat(LiveEventCodec.messagePosted(ChatId.of("lunch"), AT, UserId.of("alice"), body).withId(id))
                .isEqualTo(LiveEventCodec.encode(new LiveEvent.MessagePosted(ChatId.of("lunch"), message)));
        assertThat(LiveEventCodec.directMessageDelivered(UserId.of("bob"), AT, UserId.of("alice"), body).withId(id))
                .isEqualTo(LiveEventCodec.encode(new LiveEvent.DirectMessageDelivered(UserId.of("bob"),
                        new DirectMessage(id, AT, UserId.of("alice"), body))));
    }

    @Example
    void the_wire_form_is_the_one_the_codec_documents() {
        LiveEvent posted = new LiveEvent.MessagePosted(ChatId.of("lunch"),
                new Message(7, Instant.ofEpochMilli(1767225600123L), UserId.of("alice"), "hi"));

        assertThat(LiveEventCodec.encode(posted)).isEqualTo(
                "{\"type\":\"message\",\"chat\":\"lunch\",\"message\":{\"id\":7,\"at\":1767225600123,"
                        + "\"sender\":\"alice\",\"body\":\"hi\"}}");
        assertThat(LiveEventCodec.encode(new LiveEvent.PresenceChanged(UserId.of("alice"), true,
                Instant.ofEpochMilli(1767225600123L))))
                .isEqualTo("{\"type\":\"presence\",\"user\":\"alice\",\"online\":true,\"at\":1767225600123}");
    }

    @Example
    void a_body_stored_before_control_characters_were_refused_still_reads_back() {
        String stored = "{\"type\":\"message\",\"chat\":\"lunch\",\"message\":{\"id\":7,\"at\":1767225600123,"
                + "\"sender\":\"alice\",\"body\":\"old \\u0007 bell\"}}";

        assertThat(LiveEventCodec.decode(stored)).isEqualTo(new LiveEvent.MessagePosted(ChatId.of("lunch"),
                new Message(7, Instant.ofEpochMilli(1767225600123L), UserId.of("alice"), "old \u0007 bell")));
    }

    @Example
    void fields_a_newer_server_adds_are_skipped() {
        String withMore = "{\"type\":\"membership\",\"since\":{\"v\":[1,2]},\"user\":\"carol\",\"chat\":\"lunch\","
                + "\"member\":false,\"reason\":\"left\"}";

        assertThat(LiveEventCodec.decode(withMore))
                .isEqualTo(new LiveEvent.MembershipChanged(UserId.of("carol"), ChatId.of("lunch"), false));
    }

    @Example
    void what_is_not_an_event_is_refused_as_such() {
        for (String text : new String[]{"", "[]", "{}", "not json", "{\"type\":\"message\",\"chat\":\"lunch\"}",
                "{\"type\":\"message\",\"chat\":\"lunch\",\"message\":\"hi\",\"user\":\"x\"}",
                "{\"type\":\"presence\",\"user\":\"alice\",\"online\":true,\"at\":\"soon\"}",
                "{\"type\":\"membership\",\"user\":\"bad user\",\"chat\":\"lunch\",\"member\":true}",
                "{\"type\":\"invitation\",\"user\":\"bob\",\"chat\":\"lunch\",\"inviter\":\"alice\"}",
                "{\"type\":\"telepathy\"}"}) {
            assertThatIllegalArgumentException().as(text).isThrownBy(() -> LiveEventCodec.decode(text));
        }
    }

    @Provide
    Arbitrary<LiveEvent> events() {
        Arbitrary<UserId> users = Arbitraries.strings().withChars("abcXYZ019._-").ofMinLength(1).ofMaxLength(64)
                .map(UserId::of);
        Arbitrary<ChatId> chats = Arbitraries.strings().withChars("abcXYZ019._-").ofMinLength(1).ofMaxLength(64)
                .map(ChatId::of);
        Arbitrary<Instant> times = Arbitraries.longs().between(0, 4_102_444_800_000L).map(Instant::ofEpochMilli);
        Arbitrary<LiveEvent> posted = Combinators.combine(chats, ids(), times, users, bodies())
                .as((chat, id, at, sender, body) -> new LiveEvent.MessagePosted(chat, new Message(id, at, sender, body)));
        Arbitrary<LiveEvent> delivered = Combinators.combine(users, ids(), times, users, bodies())
                .as((owner, id, at, sender, body) ->
                        new LiveEvent.DirectMessageDelivered(owner, new DirectMessage(id, at, sender, body)));
        Arbitrary<LiveEvent> membership = Combinators.combine(users, chats, Arbitraries.of(true, false))
                .as(LiveEvent.MembershipChanged::new);
        Arbitrary<LiveEvent> presence = Combinators.combine(users, Arbitraries.of(true, false), times)
                .as(LiveEvent.PresenceChanged::new);
        Arbitrary<LiveEvent> invited = Combinators.combine(users, chats, users, Arbitraries.longs().between(0, 1L << 40),
                Arbitraries.integers().between(0, 1_000_000), times)
                .as((invitee, chat, inviter, joinPoint, members, at) ->
                        new LiveEvent.Invited(invitee, new Invitation(chat, inviter, joinPoint, members, at)));
        return Arbitraries.oneOf(posted, delivered, membership, presence, invited);
    }

    @Provide
    Arbitrary<Long> ids() {
        return Arbitraries.longs().between(1, Long.MAX_VALUE);
    }

    /** Any text with something visible in it, quotes, escapes and the whole of Unicode included. */
    @Provide
    Arbitrary<String> bodies() {
        return Arbitraries.strings().all().ofMinLength(1).ofMaxLength(200).filter(body -> !body.isBlank());
    }
}
