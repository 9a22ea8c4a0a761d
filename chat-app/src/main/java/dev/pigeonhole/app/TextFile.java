package dev.pigeonhole.app;

import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/** A file an option names (the configuration, a secret), read whole, or refused in one line that names it. */
final class TextFile {

    private TextFile() {
    }

    /** The UTF-8 text of {@code file}; {@code what} it is names it in the refusal: "cannot read the {@code what} FILE: why". */
    static String read(Path file, String what) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            throw refusal(file, what, "no such file");
        } catch (AccessDeniedException e) {
            throw refusal(file, what, "permission denied");
        } catch (CharacterCodingException e) {
            throw refusal(file, what, "it is not UTF-8 text");
        } catch (IOException e) {
            throw refusal(file, what, e.getMessage());
        }
    }

    private static IllegalArgumentException refusal(Path file, String what, String why) {
        return new IllegalArgumentException("cannot read the " + what + " " + file + ": " + why);
    }
}
