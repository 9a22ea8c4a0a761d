package dev.pigeonhole.adapter.postgres;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** SSL settings as PgJDBC receives them, and the combinations refused before any connection is tried. */
class PostgresSslSettingsTest {

    private static final String URL = "jdbc:postgresql://db.example:5432/pigeonhole";
    private static final Path CA = Path.of("/etc/pigeonhole/pg-ca.pem");

    @Test
    void the_mode_and_the_ca_reach_pgjdbc_as_its_own_properties() {
        Properties properties = PostgresStore.driverProperties(settings(URL,
                PostgresSsl.of(PostgresSsl.Mode.VERIFY_FULL, CA)));

        assertThat(properties).containsEntry("sslmode", "verify-full").containsEntry("sslrootcert", CA.toString())
                .doesNotContainKey("sslfactory");
    }

    @Test
    void nothing_set_leaves_pgjdbc_its_defaults() {
        Properties properties = PostgresStore.driverProperties(settings(URL, PostgresSsl.DRIVER_DEFAULTS));

        assertThat(properties).doesNotContainKeys("sslmode", "sslrootcert", "ssl");
    }

    @Test
    void the_url_may_say_the_same_but_not_otherwise() {
        assertThat(settings(URL + "?sslmode=verify-full&sslrootcert=" + CA,
                PostgresSsl.of(PostgresSsl.Mode.VERIFY_FULL, CA)).ssl().mode()).contains(PostgresSsl.Mode.VERIFY_FULL);

        assertThatThrownBy(() -> settings(URL + "?sslmode=require", PostgresSsl.of(PostgresSsl.Mode.VERIFY_FULL, null)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("the JDBC URL says sslmode=require but verify-full is given beside it: say it in one place");
        assertThatThrownBy(() -> settings(URL + "?sslmode=verify-ca&sslrootcert=/tmp/other.pem",
                PostgresSsl.of(null, CA)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("sslrootcert=/tmp/other.pem");
    }

    @Test
    void a_ca_file_is_refused_where_the_mode_in_force_checks_no_certificate() {
        assertThatThrownBy(() -> settings(URL, PostgresSsl.of(null, CA)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("a CA file for PostgreSQL is read only with sslmode verify-ca or verify-full; "
                        + "with prefer PgJDBC checks no certificate");
        assertThatThrownBy(() -> settings(URL, PostgresSsl.of(PostgresSsl.Mode.REQUIRE, CA)))
                .hasMessageEndingWith("with require PgJDBC checks no certificate");
        assertThat(settings(URL + "?sslmode=verify-ca", PostgresSsl.of(null, CA)).ssl().rootCert()).contains(CA);
        assertThat(settings(URL + "?ssl=true", PostgresSsl.of(null, CA)).ssl().rootCert())
                .as("ssl=true alone is verify-full to PgJDBC").contains(CA);
    }

    @Test
    void a_ca_file_that_is_missing_or_holds_no_certificate_is_refused_before_any_connection(@TempDir Path dir)
            throws IOException {
        Path missing = dir.resolve("missing.pem");
        Path text = Files.writeString(dir.resolve("not-a-ca.pem"), "not a certificate\n");
        // No server listens at this URL: the refusal comes before a connection is tried.
        String nowhere = "jdbc:postgresql://127.0.0.1:1/pigeonhole";

        assertThatThrownBy(() -> new PostgresStore(settings(nowhere, PostgresSsl.of(PostgresSsl.Mode.VERIFY_FULL,
                missing))).close())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("cannot read the PostgreSQL CA file " + missing + ": no such file");
        assertThatThrownBy(() -> new PostgresStore(settings(nowhere, PostgresSsl.of(PostgresSsl.Mode.VERIFY_FULL,
                text))).close())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("cannot read the PostgreSQL CA file " + text + ": it holds no X.509 certificate, PEM or DER");
    }

    @Test
    void modes_read_as_libpq_names_them_in_any_case_and_nothing_else() {
        assertThat(PostgresSsl.Mode.parse("verify-full")).isEqualTo(PostgresSsl.Mode.VERIFY_FULL);
        assertThat(PostgresSsl.Mode.parse("Require")).isEqualTo(PostgresSsl.Mode.REQUIRE);
        assertThatThrownBy(() -> PostgresSsl.Mode.parse("verify_full"))
                .hasMessage("'verify_full' is no sslmode; one of disable, allow, prefer, require, verify-ca, verify-full");
    }

    @Test
    void the_settings_say_what_is_set_and_never_the_password() {
        PostgresSettings settings = PostgresSettings.of(URL, "pigeonhole", "hunter2")
                .withSsl(PostgresSsl.of(PostgresSsl.Mode.VERIFY_FULL, CA));

        assertThat(settings.toString()).contains("ssl=sslmode=verify-full, sslrootcert=" + CA)
                .doesNotContain("hunter2");
    }

    private static PostgresSettings settings(String url, PostgresSsl ssl) {
        return PostgresSettings.of(url, "pigeonhole", "").withSsl(ssl);
    }
}
