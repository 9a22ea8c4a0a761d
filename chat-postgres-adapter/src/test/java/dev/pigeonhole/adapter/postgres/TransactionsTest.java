package dev.pigeonhole.adapter.postgres;

import dev.pigeonhole.domain.model.InvalidInputException;
import dev.pigeonhole.domain.model.StoreUnavailableException;
import dev.pigeonhole.testsupport.postgres.PostgresServers;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import static dev.pigeonhole.adapter.postgres.PostgresTestSettings.newSettings;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** What a failure means: tried again, the store unavailable, or a bug; never a JDBC type. */
@Timeout(60)
class TransactionsTest {

    @Test
    void a_serialization_failure_or_a_deadlock_is_tried_again_up_to_three_times_in_all() {
        try (PostgresStore store = new PostgresStore(newSettings(PostgresServers.local()))) {
            AtomicInteger attempts = new AtomicInteger();
            String answer = store.transactions().inTransaction("a test", connection -> {
                if (attempts.incrementAndGet() < 3) {
                    throw new SQLException("try again", attempts.get() == 1 ? "40001" : "40P01");
                }
                return "done";
            });
            assertThat(answer).isEqualTo("done");
            assertThat(attempts).hasValue(3);

            AtomicInteger hopeless = new AtomicInteger();
            assertThatThrownBy(() -> store.transactions().inTransaction("a test", connection -> {
                hopeless.incrementAndGet();
                throw new SQLException("try again", "40001");
            })).isInstanceOf(IllegalStateException.class);
            assertThat(hopeless).hasValue(Transactions.ATTEMPTS);
        }
    }

    @Test
    void a_pool_out_of_connections_is_unavailable_though_it_names_no_sqlstate() {
        try (PostgresStore store = new PostgresStore(newSettings(PostgresServers.local()))) {
            assertThatThrownBy(() -> store.transactions().autocommit("a test", connection -> {
                throw new java.sql.SQLTransientConnectionException("pool exhausted, request timed out");
            })).isInstanceOf(dev.pigeonhole.domain.model.StoreUnavailableException.class);
            assertThatThrownBy(() -> store.transactions().inTransaction("a test", connection -> {
                throw new SQLException("no state at all");
            })).isInstanceOf(IllegalStateException.class).hasMessageContaining("no state at all");
        }
    }

    @Test
    void a_refusal_thrown_by_the_work_rolls_back_and_goes_on_unchanged() {
        try (PostgresStore store = new PostgresStore(newSettings(PostgresServers.local()))) {
            assertThatThrownBy(() -> store.transactions().inTransaction("a test", connection -> {
                try (Statement insert = connection.createStatement()) {
                    insert.executeUpdate("insert into presence (user_id, seen_at_millis) values ('rolled-back', 1)");
                }
                throw new InvalidInputException("refused");
            })).isInstanceOf(InvalidInputException.class).hasMessage("refused");

            int rows = store.transactions().autocommit("a test", connection -> {
                try (Statement count = connection.createStatement();
                     var counted = count.executeQuery("select count(*) from presence")) {
                    counted.next();
                    return counted.getInt(1);
                }
            });
            assertThat(rows).as("the insert was rolled back").isZero();
        }
    }

    @Test
    void a_statement_the_database_rejects_is_a_bug_named_with_its_sqlstate() {
        try (PostgresStore store = new PostgresStore(newSettings(PostgresServers.local()))) {
            assertThatThrownBy(() -> store.transactions().autocommit("a broken query", connection -> {
                try (Statement broken = connection.createStatement()) {
                    return broken.execute("select * from no_such_table");
                }
            })).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("could not serve a broken query")
                    .hasMessageContaining("42P01");
        }
    }

    @Test
    void a_database_that_does_not_answer_is_unavailable_within_the_connect_timeout_and_no_password_shows()
            throws IOException {
        int port;
        try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = probe.getLocalPort();
        }
        PostgresSettings nowhere = PostgresSettings.of("jdbc:postgresql://127.0.0.1:" + port + "/db?password=secret",
                "someone", "secret").withTimeouts(Duration.ofMillis(500), Duration.ofSeconds(1));

        assertThatThrownBy(() -> new PostgresStore(nowhere))
                .isInstanceOf(StoreUnavailableException.class)
                .hasMessageContaining("127.0.0.1:" + port)
                .hasMessageNotContaining("secret");
        assertThat(nowhere.toString()).doesNotContain("secret");
    }
}
