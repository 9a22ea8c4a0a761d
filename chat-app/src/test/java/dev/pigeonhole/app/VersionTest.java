package dev.pigeonhole.app;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The version the app tells is the POM's: surefire passes {@code ${project.version}} in as a system
 * property, independently of the filtered resource that {@link Version} reads.
 */
class VersionTest {

    /** The POM's version, as the build hands it to the tests. */
    static String pomVersion() {
        String version = System.getProperty("pigeonhole.version");
        assertThat(version).as("the system property pigeonhole.version, which the POM sets for the tests")
                .isNotBlank();
        return version;
    }

    @Test
    void the_version_option_prints_the_poms_version_and_exits_0() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();

        int status = Main.run(new String[] {"--version"}, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));

        assertThat(status).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8).strip()).isEqualTo("pigeonhole " + pomVersion());
        assertThat(err.toString(StandardCharsets.UTF_8)).isEmpty();
    }

    @Test
    void the_version_read_from_the_build_is_the_poms() {
        assertThat(Version.current()).isEqualTo(pomVersion());
    }
}
