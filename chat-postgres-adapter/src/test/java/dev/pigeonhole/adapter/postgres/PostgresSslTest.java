package dev.pigeonhole.adapter.postgres;

import dev.pigeonhole.domain.model.ChatId;
import dev.pigeonhole.domain.model.MillisecondClock;
import dev.pigeonhole.domain.model.StoreUnavailableException;
import dev.pigeonhole.domain.model.UserId;
import dev.pigeonhole.domain.model.chat.Message;
import dev.pigeonhole.domain.model.limits.Limits;
import dev.pigeonhole.domain.model.live.Channel;
import dev.pigeonhole.domain.model.live.LiveEvent;
import dev.pigeonhole.domain.model.live.Topic;
import dev.pigeonhole.domain.port.out.Channels;
import dev.pigeonhole.tck.ChatHistoryContract;
import dev.pigeonhole.tck.ChatMessagesContract;
import dev.pigeonhole.tck.StoreFixture;
import dev.pigeonhole.testsupport.postgres.LocalPostgres;
import dev.pigeonhole.testsupport.postgres.PostgresServer;
import dev.pigeonhole.testsupport.postgres.PostgresServers;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.InstantSource;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static dev.pigeonhole.adapter.postgres.PostgresTestSettings.newSettings;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The store over SSL, on a server of this class's own that offers it with a certificate authority
 * made for it ({@link PostgresServers#ownWithSsl()}): with {@code verify-full} and that CA the
 * message contracts hold and the server says every session of the store is encrypted; a CA that
 * did not sign the server's certificate, a host name the certificate does not hold, and
 * {@code require} against a server without SSL are the domain's {@link StoreUnavailableException},
 * in words.
 */
class PostgresSslTest {

    /** Read as the services read it: to the millisecond, as every store keeps a time. */
    private static final InstantSource CLOCK = MillisecondClock.of(Clock.systemUTC());

    private static LocalPostgres server;

    @BeforeAll
    static void startServer() {
        server = PostgresServers.ownWithSsl();
    }

    @AfterAll
    static void stopServer() {
        if (server != null) {
            server.close();
        }
    }

    /** A store on the SSL server by the name its certificate holds, checking it against {@code authority}. */
    private static PostgresSettings verifyFull(Path authority) {
        return on(server.certificates().certifiedUrl(), PostgresSsl.Mode.VERIFY_FULL, authority);
    }

    /** A store in a fresh schema of the SSL server, reached at {@code url}. */
    private static PostgresSettings on(String url, PostgresSsl.Mode mode, Path authority) {
        PostgresServer own = server.server();
        return newSettings(new PostgresServer(own.description(), url, own.user(), own.password()))
                .withSsl(PostgresSsl.of(mode, authority));
    }

    @Test
    void over_verify_full_every_session_of_the_store_is_encrypted_and_a_message_goes_round() throws Exception {
        PostgresSettings settings = verifyFull(server.certificates().authority());
        try (PostgresStore store = new PostgresStore(settings)) {
            PostgresChats chats = new PostgresChats(store, Limits.DEFAULTS);
            UserId alice = UserId.of("alice");
            ChatId chat = ChatId.of("over-ssl");
            chats.open(chat, alice, Set.of(alice), "opening", CLOCK.instant());
            CountDownLatch heard = new CountDownLatch(1);
            Channels.Connection live = new PostgresChannels(store).connect(new Channels.Receiver() {
                @Override
                public void onEvent(Topic via, Channel channel, LiveEvent event) {
                    if (event instanceof LiveEvent.MessagePosted posted && posted.message().body().equals("sealed")) {
                        heard.countDown();
                    }
                }

                @Override
                public void onResubscribed() {
                }
            });
            try {
                live.subscribe(Channel.ofChat(chat));
                chats.send(chat, alice, "sealed", CLOCK.instant());

                assertThat(heard.await(10, TimeUnit.SECONDS)).as("the listening connection hears the send").isTrue();
                assertThat(chats.read(alice, chat, 0, 10).messages()).extracting(Message::body)
                        .containsExactly("opening", "sealed");
                assertThat(store.transactions().autocommit("asking about SSL", PostgresSslTest::encrypted))
                        .as("a pooled session, as the server sees it").isTrue();
                assertThat(listeningSessionsEncrypted(PostgresChannels.applicationName(settings)))
                        .as("the listening session, as the server sees it").isTrue();
            } finally {
                live.close();
            }
        }
    }

    @Test
    void a_ca_that_did_not_sign_the_servers_certificate_is_unavailable_saying_so_without_class_names() {
        PostgresSettings settings = verifyFull(server.certificates().unrelatedAuthority());

        assertThatThrownBy(() -> new PostgresStore(settings).close())
                .isInstanceOf(StoreUnavailableException.class)
                .hasMessageStartingWith("PostgreSQL at " + settings.endpoint())
                .hasMessageContaining("the server's certificate is not one this client trusts")
                .hasMessageNotContaining("Exception").hasMessageNotContaining("sun.");
    }

    @Test
    void verify_full_refuses_a_host_name_the_certificate_does_not_hold_which_verify_ca_lets_pass() {
        String byAddress = server.server().url();
        Path authority = server.certificates().authority();

        assertThatThrownBy(() -> new PostgresStore(on(byAddress, PostgresSsl.Mode.VERIFY_FULL, authority)).close())
                .isInstanceOf(StoreUnavailableException.class)
                .hasMessageContaining("127.0.0.1").hasMessageContaining("could not be verified");
        try (PostgresStore store = new PostgresStore(on(byAddress, PostgresSsl.Mode.VERIFY_CA, authority))) {
            assertThat(store.transactions().autocommit("asking about SSL", PostgresSslTest::encrypted)).isTrue();
        }
    }

    @Test
    void require_against_a_server_without_ssl_is_unavailable_saying_so() {
        PostgresSettings settings = newSettings(PostgresServers.local())
                .withSsl(PostgresSsl.of(PostgresSsl.Mode.REQUIRE, null));

        assertThatThrownBy(() -> new PostgresStore(settings).close())
                .isInstanceOf(StoreUnavailableException.class)
                .hasMessageStartingWith("PostgreSQL at " + settings.endpoint())
                .hasMessageContaining("does not support SSL");
    }

    /** The same contracts every store passes, each test's store over {@code verify-full}. */
    @Nested
    class Messages extends ChatMessagesContract {
        @Override
        protected StoreFixture newStore(Limits limits) {
            return PostgresStoreFixture.open(server.server(), verifyFull(server.certificates().authority()), limits);
        }
    }

    @Nested
    class History extends ChatHistoryContract {
        @Override
        protected StoreFixture newStore(Limits limits) {
            return PostgresStoreFixture.open(server.server(), verifyFull(server.certificates().authority()), limits);
        }
    }

    private static boolean encrypted(Connection connection) throws SQLException {
        try (PreparedStatement ask = connection.prepareStatement(
                "select ssl from pg_stat_ssl where pid = pg_backend_pid()");
             ResultSet answer = ask.executeQuery()) {
            return answer.next() && answer.getBoolean(1);
        }
    }

    /** Whether the server has sessions named {@code applicationName}, all of them encrypted. */
    private static boolean listeningSessionsEncrypted(String applicationName) throws SQLException {
        try (Connection admin = PlainJdbc.connect(server.server(), "public");
             PreparedStatement ask = admin.prepareStatement("select count(*) > 0 and bool_and(s.ssl) "
                     + "from pg_stat_activity a join pg_stat_ssl s using (pid) where a.application_name = ?")) {
            ask.setString(1, applicationName);
            try (ResultSet answer = ask.executeQuery()) {
                return answer.next() && answer.getBoolean(1);
            }
        }
    }
}
