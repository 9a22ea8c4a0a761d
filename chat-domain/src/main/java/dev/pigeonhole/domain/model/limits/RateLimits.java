package dev.pigeonhole.domain.model.limits;

import java.time.Duration;
import java.util.Objects;

/**
 * How fast a user may write, per kind of write. A send's bucket is the sender's in that one chat,
 * so a busy chat does not hold up a quiet one; the rarer writes have one bucket per user.
 *
 * <p>{@link #DEFAULTS}: a person types far slower than 20 messages in 5 s and opens far fewer than
 * 10 chats a minute, and a client that retries a few times stays inside them; a script that
 * floods is held to 4 sends a second in each chat.
 */
public record RateLimits(RateLimit send, RateLimit create, RateLimit invite, RateLimit deliver) {

    public static final RateLimits DEFAULTS = new RateLimits(
            new RateLimit(20, Duration.ofSeconds(5)),
            new RateLimit(10, Duration.ofMinutes(1)),
            new RateLimit(30, Duration.ofMinutes(1)),
            new RateLimit(30, Duration.ofMinutes(1)));

    /** Every write admitted: for load tests and benchmarks, which measure the store, not the limiter. */
    public static final RateLimits NONE = new RateLimits(RateLimit.NONE, RateLimit.NONE, RateLimit.NONE,
            RateLimit.NONE);

    public RateLimits {
        Objects.requireNonNull(send, "send");
        Objects.requireNonNull(create, "create");
        Objects.requireNonNull(invite, "invite");
        Objects.requireNonNull(deliver, "deliver");
    }

    public RateLimits withSend(RateLimit value) {
        return new RateLimits(value, create, invite, deliver);
    }

    public RateLimit of(Write write) {
        return switch (write) {
            case SEND -> send;
            case CREATE -> create;
            case INVITE -> invite;
            case DELIVER -> deliver;
        };
    }

    /** The kinds of write a user is held to a rate in. */
    public enum Write {
        SEND, CREATE, INVITE, DELIVER;

        /** The lower-case name, as keys, flags and messages spell it. */
        public String word() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }
}
