package dev.pigeonhole.app;

import dev.pigeonhole.adapter.http.ApiClient;
import dev.pigeonhole.adapter.postgres.PostgresSettings;
import dev.pigeonhole.domain.model.StoreUnavailableException;
import dev.pigeonhole.domain.model.chat.PendingChat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.time.InstantSource;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The composition root on PostgreSQL: the book's scenario, the server on it, and a database that is not there. */
class PostgresWiringTest {

    @RegisterExtension
    final RunningServer server = RunningServer.startedByTheTest();

    @Test
    void the_books_scenario_plays_the_same_on_postgres() throws Exception {
        List<PendingChat> pending;
        try (Pigeonhole app = Pigeonhole.start(StoreUnderTest.POSTGRES.config(), InstantSource.system())) {
            pending = new BookScenario(app, new PrintWriter(new StringWriter())).run();
        }

        assertThat(pending).singleElement().satisfies(chat -> {
            assertThat(chat.unread()).isEqualTo(1);
            assertThat(chat.messages()).singleElement().satisfies(m -> assertThat(m.id()).isEqualTo(6));
        });
    }

    @Test
    void the_server_runs_on_postgres_and_says_so_on_health() {
        server.start(StoreUnderTest.POSTGRES.config());
        ApiClient api = server.api();
        String alice = api.signIn("alice");
        String chat = api.postJson("/api/chats", alice, Map.of("members", List.of("bob"), "message", "hi"))
                .json().get("chatId").stringValue();

        assertThat(api.postJson("/api/chats/" + chat + "/messages", alice, Map.of("message", "there"))
                .json().get("id").longValue()).isEqualTo(2);
        assertThat(api.get("/api/pending", api.signIn("bob")).json().get("chats").get(0).get("unread").longValue())
                .isEqualTo(2);
        ApiClient.Response health = api.get("/health", null);
        assertThat(health.status()).isEqualTo(200);
        assertThat(health.body()).contains("postgres");
        assertThat(server.store()).startsWith("postgres (").doesNotContain("password");
    }

    @Test
    void a_database_that_does_not_answer_is_a_clear_error_that_shows_no_password() {
        PostgresSettings nowhere = PostgresSettings.of("jdbc:postgresql://127.0.0.1:1/pigeonhole?password=secret",
                "pigeonhole", "hunter2").withTimeouts(Duration.ofMillis(500), Duration.ofSeconds(1));

        assertThatThrownBy(() -> Pigeonhole.start(AppConfig.defaults().withPostgres(nowhere), InstantSource.system()))
                .isInstanceOf(StoreUnavailableException.class)
                .hasMessageContaining("127.0.0.1:1")
                .hasMessageNotContaining("secret")
                .hasMessageNotContaining("hunter2");
    }
}
