package dev.pigeonhole.benchmarks.load;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class ConnectionsResultTest {

    private static final ServerProbe.Memory UNREAD = new ServerProbe.Memory(OptionalLong.empty(), OptionalLong.empty());

    /** Socket i done at (i + 1) ms after the start: 1 000 connects a second throughout. */
    private static long[] oneEachMillisecond(int n) {
        long[] done = new long[n];
        for (int i = 0; i < n; i++) {
            done[i] = (i + 1) * 1_000_000L;
        }
        return done;
    }

    @Test
    void theSmallestRunHasItsLastStretchFromTheStart() {
        ConnectionsOptions options = ConnectionsOptions.parse("--sockets", "100", "--chat-members", "99");
        Map<String, Object> json = ConnectionsResult.json(options, 100, 0, oneEachMillisecond(100), UNREAD, UNREAD,
                OptionalLong.empty(), List.of(), List.of(), 0);
        assertThat(json).containsEntry("lastStretchSockets", 100).containsEntry("connectsPerSecondLast", 1000.0)
                .containsEntry("connectsPerSecondFirst100", 1000.0);
    }

    @Test
    void aLargerRunTimesItsLastTenthFromTheSocketBefore() {
        ConnectionsOptions options = ConnectionsOptions.parse("--sockets", "2000");
        Map<String, Object> json = ConnectionsResult.json(options, 2000, 0, oneEachMillisecond(2000), UNREAD, UNREAD,
                OptionalLong.of(2000), List.of(3.0, 5.0, 4.0), List.of(1.0), 0);
        assertThat(json).containsEntry("lastStretchSockets", 200).containsEntry("connectsPerSecondLast", 1000.0)
                .containsEntry("lastOfChatMillis", 4.0).containsEntry("lastOfChatMillisMax", 5.0)
                .containsEntry("serverLiveSessions", 2000L);
        assertThat(ConnectionsResult.summary(json)).contains("last / first").contains("1.00");
    }
}
