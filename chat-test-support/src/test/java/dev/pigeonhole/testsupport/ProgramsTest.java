package dev.pigeonhole.testsupport;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class ProgramsTest {

    @Test
    void programs_come_from_the_first_folder_that_holds_every_one_of_them(@TempDir Path root) throws IOException {
        Path onlyOne = folderWith(root.resolve("one"), "ph-server");
        Path both = folderWith(root.resolve("both"), "ph-server", "ph-init");
        String missing = "ph-nowhere-" + ProcessHandle.current().pid();

        assertThat(Programs.find(List.of("ph-server", "ph-init"), List.of(onlyOne, both)))
                .contains(new Programs(both));
        assertThat(Programs.find(List.of("ph-server", missing), List.of(onlyOne, both))).isEmpty();
        assertThat(new Programs(both).path("ph-init")).isEqualTo(both.resolve("ph-init"));
    }

    @Test
    void versioned_folders_come_newest_first(@TempDir Path root) throws IOException {
        for (String version : List.of("9", "15", "16", "notes")) {
            Files.createDirectories(root.resolve(version).resolve("bin"));
        }

        assertThat(Programs.newestFirst(root, "bin"))
                .containsExactly(root.resolve("16/bin"), root.resolve("15/bin"), root.resolve("9/bin"));
        assertThat(Programs.newestFirst(root.resolve("absent"), "bin")).isEmpty();
    }

    private static Path folderWith(Path folder, String... programs) throws IOException {
        Files.createDirectories(folder);
        for (String name : programs) {
            Files.createFile(folder.resolve(name), PosixFilePermissions.asFileAttribute(
                    PosixFilePermissions.fromString("rwxr-xr-x")));
        }
        return folder;
    }
}
