package dev.pigeonhole.domain.model;

import java.time.Instant;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Optional;

/**
 * The sends one chat remembers under idempotency keys, each until its window closes
 * ({@link IdempotencyKey#WINDOW} after the send). Scoped to the sender: two members may use the
 * same key without meeting. Part of a {@link Chat}, which its store guards; not thread-safe.
 */
final class KeyedSends {

    private record SenderKey(UserId sender, IdempotencyKey key) {
    }

    private record Remembered(Message message, Instant forgetAt) {
    }

    /** In the order remembered, which is the order the windows close when the clock runs forward. */
    private final LinkedHashMap<SenderKey, Remembered> byKey = new LinkedHashMap<>();

    /** Forgets the oldest keys whose windows have closed by {@code now}. */
    void forgetClosed(Instant now) {
        Iterator<Remembered> oldestFirst = byKey.values().iterator();
        while (oldestFirst.hasNext() && !now.isBefore(oldestFirst.next().forgetAt())) {
            oldestFirst.remove();
        }
    }

    /** The message the sender sent under the key, if that send's window is still open at {@code now}. */
    Optional<Message> sentBefore(UserId sender, IdempotencyKey key, Instant now) {
        Remembered remembered = byKey.get(new SenderKey(sender, key));
        if (remembered == null || !now.isBefore(remembered.forgetAt())) {
            return Optional.empty();
        }
        return Optional.of(remembered.message());
    }

    void remember(UserId sender, IdempotencyKey key, Message message) {
        SenderKey senderKey = new SenderKey(sender, key);
        // Put at the end again, so the map stays in the order the windows close.
        byKey.remove(senderKey);
        byKey.put(senderKey, new Remembered(message, message.sentAt().plus(IdempotencyKey.WINDOW)));
    }
}
