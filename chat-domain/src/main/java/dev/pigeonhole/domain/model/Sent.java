package dev.pigeonhole.domain.model;

import java.util.List;
import java.util.Objects;

/**
 * A send's outcome: the message it stored, or, for a send repeated under an idempotency key, the
 * message stored the first time, in which case nothing was stored or announced again.
 */
public record Sent(ChatId chat, Message message, boolean repeat) implements ChatChange {

    public Sent {
        Objects.requireNonNull(chat, "chat");
        Objects.requireNonNull(message, "message");
    }

    /**
     * The answer to a send made again under {@code key}: what was stored then. A key reused for
     * another body is a client's mistake, refused rather than answered with a message the client
     * did not mean.
     */
    public static Sent repeatOf(ChatId chat, IdempotencyKey key, Message earlier, String body) {
        if (!earlier.body().equals(body)) {
            throw new InvalidInputException("idempotency key " + key + " was used for a different message in chat "
                    + chat + "; use a new key for a new message");
        }
        return new Sent(chat, earlier, true);
    }

    @Override
    public List<LiveEvent> events() {
        return repeat ? List.of() : List.of(new LiveEvent.MessagePosted(chat, message));
    }
}
