package dev.pigeonhole.testsupport;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The folder that holds every program a fixture runs (a server and its companions, such as
 * PostgreSQL's {@code initdb} beside {@code postgres}), so that they come from one installation.
 * Folders are tried in order: each folder of the {@code PATH}, then the ones a distribution keeps
 * off it (Debian's PostgreSQL in {@code /usr/lib/postgresql/<version>/bin}).
 */
public record Programs(Path folder) {

    /** The program of that name in this folder. */
    public Path path(String name) {
        return folder.resolve(name);
    }

    /** The first folder, of the {@code PATH}'s and then {@code elsewhere}, that holds every one of {@code names}. */
    public static Optional<Programs> find(List<String> names, List<Path> elsewhere) {
        List<Path> folders = new ArrayList<>();
        String path = System.getenv("PATH");
        if (path != null) {
            Stream.of(path.split(File.pathSeparator)).filter(entry -> !entry.isBlank()).map(Path::of)
                    .forEach(folders::add);
        }
        folders.addAll(elsewhere);
        return folders.stream()
                .filter(folder -> names.stream().map(folder::resolve)
                        .allMatch(program -> Files.isRegularFile(program) && Files.isExecutable(program)))
                .findFirst()
                .map(Programs::new);
    }

    /**
     * The folders {@code root/<version>/below}, the highest version first, for software a
     * distribution installs side by side by version: {@code newestFirst(/usr/lib/postgresql, bin)}.
     */
    public static List<Path> newestFirst(Path root, String below) {
        if (!Files.isDirectory(root)) {
            return List.of();
        }
        try (Stream<Path> versions = Files.list(root)) {
            return versions
                    .filter(version -> version.getFileName().toString().matches("\\d+"))
                    .sorted(Comparator.comparingInt((Path version) -> Integer.parseInt(version.getFileName().toString()))
                            .reversed())
                    .map(version -> version.resolve(below))
                    .toList();
        } catch (IOException e) {
            return List.of();
        }
    }
}
