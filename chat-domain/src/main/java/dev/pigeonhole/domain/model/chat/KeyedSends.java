package dev.pigeonhole.domain.model.chat;

import dev.pigeonhole.domain.model.UserId;

import java.time.Instant;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The sends one chat remembers under idempotency keys: each until its window closes
 * ({@link IdempotencyKey#WINDOW} after the send), and never more than the chat's retention limit
 * of them, the soonest to close going first. So a chat's memory of keys follows its retention as
 * its messages do. Scoped to the sender: two members may use the same key without meeting.
 *
 * <p>Ordered by the time each window closes, then by {@link IdempotencyKey#scopedTo}: the order a
 * Redis sorted set keeps them in, so the script that transliterates this forgets the same ones.
 * Part of a {@link Chat}, which its store guards; not thread-safe.
 */
final class KeyedSends {

    /** How many keys whose window closed one send forgets at most, so no send pays for a backlog. */
    static final int FORGET_AT_MOST = 100;

    private record Window(long closesAtMillis, String scopedKey) {
    }

    private static final Comparator<Window> SOONEST_FIRST =
            Comparator.comparingLong(Window::closesAtMillis).thenComparing(Window::scopedKey);

    private final TreeMap<Window, RememberedSend> bySoonestClose = new TreeMap<>(SOONEST_FIRST);
    private final Map<String, Window> windowByKey = new HashMap<>();

    /** Forgets up to {@link #FORGET_AT_MOST} of the keys whose windows have closed by {@code now}. */
    void forgetClosed(Instant now) {
        for (int forgotten = 0; forgotten < FORGET_AT_MOST && !bySoonestClose.isEmpty(); forgotten++) {
            Window soonest = bySoonestClose.firstKey();
            if (soonest.closesAtMillis() > now.toEpochMilli()) {
                return;
            }
            forget(soonest);
        }
    }

    /** The send the sender made under the key, if its window is still open at {@code now}. */
    Optional<RememberedSend> sentBefore(UserId sender, IdempotencyKey key, Instant now) {
        Window window = windowByKey.get(key.scopedTo(sender));
        if (window == null || window.closesAtMillis() <= now.toEpochMilli()) {
            return Optional.empty();
        }
        return Optional.of(bySoonestClose.get(window));
    }

    /** Remembers the send, then forgets the soonest to close while more than {@code atMost} are kept. */
    void remember(UserId sender, IdempotencyKey key, RememberedSend send, int atMost) {
        String scopedKey = key.scopedTo(sender);
        Window earlier = windowByKey.get(scopedKey);
        if (earlier != null) {
            forget(earlier);
        }
        Window window = new Window(send.sentAt().plus(IdempotencyKey.WINDOW).toEpochMilli(), scopedKey);
        bySoonestClose.put(window, send);
        windowByKey.put(scopedKey, window);
        while (bySoonestClose.size() > atMost) {
            forget(bySoonestClose.firstKey());
        }
    }

    /** Every remembered send by scoped key, as values. */
    Map<String, RememberedSend> snapshot() {
        Map<String, RememberedSend> all = new HashMap<>();
        windowByKey.forEach((scopedKey, window) -> all.put(scopedKey, bySoonestClose.get(window)));
        return all;
    }

    /** Puts a remembered send back as a store kept it. */
    void restore(String scopedKey, RememberedSend send) {
        Window window = new Window(send.sentAt().plus(IdempotencyKey.WINDOW).toEpochMilli(), scopedKey);
        bySoonestClose.put(window, send);
        windowByKey.put(scopedKey, window);
    }

    private void forget(Window window) {
        bySoonestClose.remove(window);
        windowByKey.remove(window.scopedKey());
    }
}
