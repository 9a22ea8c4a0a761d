package dev.pigeonhole.domain.model.live;

import dev.pigeonhole.domain.model.InvalidIdException;

import java.util.regex.Pattern;

/**
 * A glob over channel names: {@code *} matches any run of characters, {@code ?} exactly one.
 * Only these two, because they mean the same in every store (Redis globs know more).
 */
public record ChannelPattern(String glob) implements Topic {

    private static final Pattern ALLOWED = Pattern.compile("[A-Za-z0-9._:*?-]{1,128}");

    public static final ChannelPattern ALL_CHATS = new ChannelPattern("chat:*");

    public ChannelPattern {
        if (glob == null || !ALLOWED.matcher(glob).matches()) {
            throw new InvalidIdException("channel pattern '" + glob
                    + "' is not valid: use 1 to 128 characters from A-Z, a-z, 0-9, '.', '_', ':', '-', '*' and '?'");
        }
    }

    public boolean matches(Channel channel) {
        return matches(glob, 0, channel.name(), 0);
    }

    private static boolean matches(String glob, int g, String name, int n) {
        while (g < glob.length()) {
            char c = glob.charAt(g);
            if (c == '*') {
                for (int rest = n; rest <= name.length(); rest++) {
                    if (matches(glob, g + 1, name, rest)) {
                        return true;
                    }
                }
                return false;
            }
            if (n == name.length() || (c != '?' && c != name.charAt(n))) {
                return false;
            }
            g++;
            n++;
        }
        return n == name.length();
    }

    @Override
    public String toString() {
        return glob;
    }
}
