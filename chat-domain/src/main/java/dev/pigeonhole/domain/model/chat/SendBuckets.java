package dev.pigeonhole.domain.model.chat;

import dev.pigeonhole.domain.model.UserId;
import dev.pigeonhole.domain.model.limits.RateLimit;
import dev.pigeonhole.domain.model.limits.RateLimits;

import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Each sender's bucket in one chat ({@link RateLimit}), kept as the time it is full again. A
 * bucket outlives its sender's membership, so leaving and coming back does not refill it; and a
 * full bucket is as good as none, so every send first forgets the buckets that are full by then.
 * The chat therefore holds a bucket only for those who sent lately, however many came and went.
 *
 * <p>Part of a {@link Chat}, which its store guards; not thread-safe.
 */
final class SendBuckets {

    private final Map<UserId, Long> fullAtBySender = new HashMap<>();
    private final TreeMap<Long, TreeSet<UserId>> sendersByFullAt = new TreeMap<>();

    /**
     * {@link RateLimit#take} on the sender's bucket, at the send's own time, after forgetting the
     * buckets full by then; no limit keeps no bucket.
     *
     * @throws dev.pigeonhole.domain.model.RateLimitedException if the bucket is empty; nothing changed
     */
    void takeSendToken(UserId sender, RateLimit rate, Instant at) {
        if (rate.isNone()) {
            return;
        }
        long now = at.toEpochMilli();
        forgetFull(now);
        RateLimit.Take take = rate.take(fullAt(sender), now);
        if (!take.admitted()) {
            throw rate.refusal(RateLimits.Write.SEND, take.retryAfter());
        }
        refillAt(sender, take.fullAtMillis());
    }

    /** When the sender's bucket is full again; 0 for one the chat does not hold, which is full. */
    long fullAt(UserId sender) {
        return fullAtBySender.getOrDefault(sender, 0L);
    }

    void refillAt(UserId sender, long fullAtMillis) {
        forget(sender);
        fullAtBySender.put(sender, fullAtMillis);
        sendersByFullAt.computeIfAbsent(fullAtMillis, at -> new TreeSet<>()).add(sender);
    }

    Map<UserId, Long> snapshot() {
        return new HashMap<>(fullAtBySender);
    }

    /** Forgets every bucket full again by {@code nowMillis}. */
    void forgetFull(long nowMillis) {
        var full = sendersByFullAt.headMap(nowMillis, true);
        full.values().forEach(senders -> senders.forEach(fullAtBySender::remove));
        full.clear();
    }

    private void forget(UserId sender) {
        Long was = fullAtBySender.remove(sender);
        if (was != null) {
            sendersByFullAt.computeIfPresent(was, (at, senders) -> {
                senders.remove(sender);
                return senders.isEmpty() ? null : senders;
            });
        }
    }
}
