package dev.pigeonhole.app;

import dev.pigeonhole.testsupport.postgres.LocalPostgres;
import dev.pigeonhole.testsupport.postgres.PostgresServer;
import dev.pigeonhole.testsupport.postgres.PostgresServers;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code --postgres-sslmode} and {@code --postgres-ssl-root-cert} as an operator gives them, on a
 * PostgreSQL of this class's own that offers SSL with a CA made for it: the right CA and
 * {@code verify-full} play the book's scenario; the wrong CA, or {@code require} against a server
 * without SSL, is exit status 3 and one line saying so; a CA file that cannot be read or holds no
 * certificate, or settings the URL contradicts, are exit status 2 before anything is tried. No line shows the password.
 */
class PostgresSslCommandTest {

    private static final String PASSWORD = "hunter2-not-shown";

    private static LocalPostgres server;

    @TempDir
    Path dir;

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

    @Test
    void verify_full_with_the_ca_that_signed_the_server_plays_the_books_scenario() throws IOException {
        CommandRun outcome = postgres("demo", server.server(), server.certificates().certifiedUrl(),
                "--postgres-sslmode", "verify-full",
                "--postgres-ssl-root-cert", server.certificates().authority().toString());

        assertThat(outcome.status()).as("standard error:%n%s", outcome.err()).isZero();
        assertThat(outcome.out()).contains("Pigeonhole demo, store: postgres");
    }

    @Test
    void verify_full_with_a_ca_that_did_not_sign_it_is_exit_status_3_with_one_line() throws IOException {
        String url = server.certificates().certifiedUrl();

        CommandRun outcome = postgres("serve", server.server(), url, "--postgres-sslmode", "verify-full",
                "--postgres-ssl-root-cert", server.certificates().unrelatedAuthority().toString());

        assertThat(outcome.status()).as("standard error:%n%s", outcome.err()).isEqualTo(3);
        assertOneLine(outcome);
        assertThat(outcome.errLines().getFirst()).startsWith("pigeonhole: PostgreSQL at " + url)
                .contains("the server's certificate is not one this client trusts");
    }

    @Test
    void require_against_a_server_without_ssl_is_exit_status_3_with_one_line() throws IOException {
        PostgresServer plain = PostgresServers.local();

        CommandRun outcome = postgres("serve", plain, plain.url(), "--postgres-sslmode", "require");

        assertThat(outcome.status()).as("standard error:%n%s", outcome.err()).isEqualTo(3);
        assertOneLine(outcome);
        assertThat(outcome.errLines().getFirst()).startsWith("pigeonhole: PostgreSQL at " + plain.url())
                .contains("does not support SSL");
    }

    @Test
    void a_ca_file_that_is_not_there_is_exit_status_2_naming_it() throws IOException {
        Path missing = dir.resolve("no-such-ca.pem");

        CommandRun outcome = postgres("serve", server.server(), server.certificates().certifiedUrl(),
                "--postgres-sslmode", "verify-full", "--postgres-ssl-root-cert", missing.toString());

        assertThat(outcome.status()).isEqualTo(2);
        assertThat(outcome.errLines()).containsExactly(
                "pigeonhole: cannot read the PostgreSQL CA file " + missing + ": no such file");
    }

    @Test
    void a_ca_file_that_holds_no_certificate_is_exit_status_2_naming_it() throws IOException {
        Path text = Files.writeString(dir.resolve("not-a-ca.pem"), "not a certificate\n");

        CommandRun outcome = postgres("serve", server.server(), server.certificates().certifiedUrl(),
                "--postgres-sslmode", "verify-full", "--postgres-ssl-root-cert", text.toString());

        assertThat(outcome.status()).isEqualTo(2);
        assertThat(outcome.errLines()).containsExactly("pigeonhole: cannot read the PostgreSQL CA file " + text
                + ": it holds no X.509 certificate, PEM or DER");
    }

    @Test
    void an_sslmode_the_url_says_otherwise_is_exit_status_2_with_one_line() throws IOException {
        CommandRun outcome = postgres("serve", server.server(), server.server().url() + "?sslmode=require",
                "--postgres-sslmode", "verify-full");

        assertThat(outcome.status()).isEqualTo(2);
        assertOneLine(outcome);
        assertThat(outcome.errLines().getFirst()).contains("sslmode=require").contains("verify-full")
                .contains("one place");
    }

    @Test
    void an_sslmode_libpq_does_not_name_is_exit_status_2_naming_the_option_and_the_modes() {
        CommandRun outcome = CommandRun.of(Map.of(), "serve", "--store", "postgres", "--postgres-sslmode", "verify_full");

        assertThat(outcome.status()).isEqualTo(2);
        assertOneLine(outcome);
        assertThat(outcome.errLines().getFirst()).contains("--postgres-sslmode").contains("verify_full")
                .contains("verify-ca, verify-full");
    }

    private CommandRun postgres(String command, PostgresServer on, String url, String... ssl) throws IOException {
        Path passwordFile = Files.writeString(dir.resolve("pg-password"), PASSWORD);
        List<String> args = new ArrayList<>(List.of(command, "--store", "postgres", "--postgres-url", url,
                "--postgres-user", on.user(), "--postgres-password-file", passwordFile.toString(),
                "--postgres-schema", on.newSchema()));
        if (command.equals("serve")) {
            args.addAll(List.of("--port", "0"));
        }
        args.addAll(List.of(ssl));
        CommandRun outcome = CommandRun.of(Map.of(), args.toArray(String[]::new));
        assertThat(outcome.out() + outcome.err()).doesNotContain(PASSWORD);
        return outcome;
    }

    private static void assertOneLine(CommandRun outcome) {
        assertThat(outcome.errLines()).as("standard error:%n%s", outcome.err()).hasSize(1);
        assertThat(outcome.err()).doesNotContain("Exception").doesNotContain("\tat ");
    }
}
