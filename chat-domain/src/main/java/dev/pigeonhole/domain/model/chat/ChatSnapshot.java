package dev.pigeonhole.domain.model.chat;

import dev.pigeonhole.domain.model.ChatId;
import dev.pigeonhole.domain.model.UserId;

import java.util.Map;
import java.util.Objects;

/**
 * Everything a {@link Chat} holds, as plain values: what a store that keeps chats in rows reads
 * before an operation ({@link Chat#restore}) and compares with the chat afterwards
 * ({@link Chat#snapshot}), to write only what changed. The aggregate still decides everything;
 * this is only its state at rest. A store that keeps the objects themselves (memory) or runs a
 * transliteration of them (Redis) has no use for it.
 *
 * @param deleted     its last member left: the store deletes the chat
 * @param members     each member's cursor and join point
 * @param keyedSends  what the chat remembers of sends under idempotency keys, by
 *                    {@link IdempotencyKey#scopedTo scoped key}
 * @param sendBuckets when each sender's bucket is full again (epoch millis), for those who sent
 *                    lately
 */
public record ChatSnapshot(ChatId id, Access access, long lastId, long firstAvailableId, boolean deleted,
                           Map<UserId, Member> members, Map<String, RememberedSend> keyedSends,
                           Map<UserId, Long> sendBuckets) {

    public ChatSnapshot {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(access, "access");
        members = Map.copyOf(members);
        keyedSends = Map.copyOf(keyedSends);
        sendBuckets = Map.copyOf(sendBuckets);
    }

    /** One member at rest. */
    public record Member(long cursor, long joinPoint) {
    }
}
