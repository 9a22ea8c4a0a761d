package dev.pigeonhole.adapter.http;

import dev.pigeonhole.domain.model.ChatId;
import dev.pigeonhole.domain.model.UserId;
import dev.pigeonhole.domain.model.chat.Message;
import dev.pigeonhole.domain.model.live.Channel;
import dev.pigeonhole.domain.model.live.LiveEvent;
import dev.pigeonhole.domain.model.live.LiveSignal;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An event fanned out to many connections is written once, and each connection's frame is the
 * text of its own event, however many events come and go through the shared table.
 */
class LiveFramesTest {

    private static final Instant AT = Instant.parse("2026-11-21T10:00:00.123Z");
    private static final ChatId CHAT = ChatId.of("lunch");

    @Test
    void every_connection_sent_the_same_event_gets_the_same_frame_written_once() {
        LiveEvent posted = posted(7, "hi");
        LiveSignal.Event signal = new LiveSignal.Event(Channel.ofChat(CHAT), posted);

        LiveFrames.Frame first = LiveFrames.of(signal).orElseThrow();
        for (int connection = 0; connection < 100; connection++) {
            assertThat(LiveFrames.of(signal).orElseThrow()).isSameAs(first);
        }
        assertThat(LiveFrames.of(new LiveSignal.Event(Channel.ofChat(CHAT), posted)).orElseThrow())
                .as("the same event, however it is wrapped").isSameAs(first);
        assertThat(first.text()).isEqualTo(
                "{\"type\":\"message\",\"chatId\":\"lunch\",\"message\":{\"id\":7,\"ts\":\"2026-11-21T10:00:00.123Z\","
                        + "\"sender\":\"alice\",\"message\":\"hi\"}}");
        assertThat(first.bytes()).isEqualTo(first.text().getBytes(StandardCharsets.UTF_8).length);
    }

    @Test
    void each_of_many_events_gets_its_own_text_whichever_share_a_slot() {
        List<LiveSignal.Event> signals = new ArrayList<>();
        for (int i = 1; i <= LiveFrames.SLOTS * 8; i++) {
            signals.add(new LiveSignal.Event(Channel.ofChat(CHAT), posted(i, "message " + i + " é")));
        }
        // Twice over, so slots are taken by later events before earlier ones are asked for again.
        for (int round = 0; round < 2; round++) {
            for (LiveSignal.Event signal : signals) {
                LiveFrames.Frame frame = LiveFrames.of(signal).orElseThrow();
                long id = ((LiveEvent.MessagePosted) signal.event()).message().id();
                assertThat(frame.text()).contains("\"id\":" + id + ",").contains("\"message " + id + " é\"");
                assertThat(frame.bytes()).isEqualTo(frame.text().getBytes(StandardCharsets.UTF_8).length);
            }
        }
    }

    @Test
    void an_equal_event_read_anew_is_written_anew_and_reads_the_same() {
        LiveFrames.Frame live = LiveFrames.of(new LiveSignal.Event(Channel.ofChat(CHAT), posted(3, "x"))).orElseThrow();
        LiveFrames.Frame caughtUp = LiveFrames.of(new LiveSignal.Event(Channel.ofChat(CHAT), posted(3, "x"))).orElseThrow();

        assertThat(caughtUp).isNotSameAs(live);
        assertThat(caughtUp.text()).isEqualTo(live.text());
    }

    @Test
    void what_a_client_is_not_told_has_no_frame_and_a_presence_diff_is_its_feeds_own() {
        UserId bob = UserId.of("bob");
        assertThat(LiveFrames.of(new LiveSignal.Event(Channel.PRESENCE, new LiveEvent.PresenceChanged(bob, true, AT))))
                .isEmpty();
        assertThat(LiveFrames.of(new LiveSignal.Closed(LiveSignal.CloseReason.SLOW))).isEmpty();
        assertThat(LiveFrames.of(new LiveSignal.Presence(Set.of(bob), Set.of())).orElseThrow().text())
                .isEqualTo("{\"type\":\"presence\",\"online\":[\"bob\"],\"offline\":[]}");
        assertThat(LiveFrames.of(new LiveSignal.Resync()).orElseThrow().text()).isEqualTo("{\"type\":\"resync\"}");
    }

    private static LiveEvent posted(long id, String body) {
        return new LiveEvent.MessagePosted(CHAT, new Message(id, AT, UserId.of("alice"), body));
    }
}
