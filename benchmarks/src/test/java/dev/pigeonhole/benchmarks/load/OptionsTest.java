package dev.pigeonhole.benchmarks.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The command lines run.sh passes still read as they did, and the checks beyond picocli's still hold. */
class OptionsTest {

    @Test
    void loadGeneratorTakesRunShsOptions() {
        LoadOptions options = LoadOptions.parse("--url", "http://127.0.0.1:9000/", "--users", "200", "--chats", "20",
                "--rate", "400", "--duration", "10", "--warmup", "15", "--label", "jedis");
        assertThat(options.url()).hasToString("http://127.0.0.1:9000");
        assertThat(options.users()).isEqualTo(200);
        assertThat(options.duration()).isEqualTo(Duration.ofSeconds(10));
        assertThat(options.warmup()).isEqualTo(Duration.ofSeconds(15));
        assertThat(options.scenario()).isEqualTo(LoadOptions.CHATS);
    }

    @Test
    void fanOutPutsTheSocketsInOneChatAtItsOwnRate() {
        LoadOptions options = LoadOptions.parse("--scenario", "fanout", "--sockets", "100", "--duration", "3");
        assertThat(options.users()).isEqualTo(100);
        assertThat(options.chats()).isEqualTo(1);
        assertThat(options.rate()).isEqualTo(100);
        assertThatThrownBy(() -> LoadOptions.parse("--scenario", "fanout", "--users", "5"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("--users");
        assertThatThrownBy(() -> LoadOptions.parse("--sockets", "5")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void loadGeneratorDefaults() {
        LoadOptions options = LoadOptions.parse();
        assertThat(options.users()).isEqualTo(100);
        assertThat(options.chats()).isEqualTo(10);
        assertThat(options.rate()).isEqualTo(200);
        assertThat(options.duration()).isEqualTo(Duration.ofSeconds(30));
        assertThat(options.warmup()).isEqualTo(Duration.ofSeconds(5));
        assertThatThrownBy(() -> LoadOptions.parse("--chats", "11", "--users", "10"))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> LoadOptions.parse("--bogus", "1")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void connectionsTakeAnIsoOrAShortTimeLimit() {
        ConnectionsOptions options = ConnectionsOptions.parse("--url", "http://127.0.0.1:9000", "--sockets", "1000",
                "--server-pid", "42", "--chat-members", "999", "--warmup-sockets", "200", "--rounds", "5",
                "--time-limit", "PT90S");
        assertThat(options.timeLimit()).isEqualTo(Duration.ofSeconds(90));
        assertThat(options.serverPid()).contains(42L);
        assertThat(ConnectionsOptions.parse("--time-limit", "2m").timeLimit()).isEqualTo(Duration.ofMinutes(2));
        assertThatThrownBy(() -> ConnectionsOptions.parse("--group-size", "1")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ConnectionsOptions.parse("--sockets", "99")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void sendRateTakesWholeSecondsAsBefore() {
        SendRate.Options options = SendRate.parse("--url", "http://127.0.0.1:9000", "--callers", "16",
                "--warmup", "2", "--duration", "8", "--label", "memory");
        assertThat(options.warmup()).isEqualTo(Duration.ofSeconds(2));
        assertThat(options.duration()).isEqualTo(Duration.ofSeconds(8));
        assertThatThrownBy(() -> SendRate.parse("--callers", "4")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> SendRate.parse("--url", "http://x", "--callers", "0"))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
