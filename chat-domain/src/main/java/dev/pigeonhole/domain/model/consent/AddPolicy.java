package dev.pigeonhole.domain.model.consent;

import dev.pigeonhole.domain.model.InvalidInputException;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/** Whom a user lets add it to a chat directly; anyone else's add is an {@link Invitation}. */
public enum AddPolicy {

    /** Anyone may add the user, as in the book, where adding someone is all there is. */
    ANYONE("anyone"),
    /** Only someone already sharing a chat with the user may add it; a stranger invites. */
    CO_MEMBERS("co-members");

    private final String label;

    AddPolicy(String label) {
        this.label = label;
    }

    /** The name used on the wire and in configuration: {@code anyone}, {@code co-members}. */
    public String label() {
        return label;
    }

    public static AddPolicy parse(String label) {
        String wanted = label == null ? "" : label.trim().toLowerCase(Locale.ROOT);
        return Arrays.stream(values())
                .filter(policy -> policy.label.equals(wanted))
                .findFirst()
                .orElseThrow(() -> new InvalidInputException("add policy must be one of "
                        + Arrays.stream(values()).map(AddPolicy::label).collect(Collectors.joining(", "))
                        + ", not '" + label + "'"));
    }

    @Override
    public String toString() {
        return label;
    }
}
