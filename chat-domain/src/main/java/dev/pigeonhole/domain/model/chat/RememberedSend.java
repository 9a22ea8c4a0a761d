package dev.pigeonhole.domain.model.chat;

import dev.pigeonhole.domain.model.ChatId;
import dev.pigeonhole.domain.model.InvalidInputException;
import dev.pigeonhole.domain.model.UserId;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.Arrays;
import java.util.Base64;
import java.util.Objects;

/**
 * What a chat remembers of a send made under an idempotency key: its id, its time and a digest of
 * its body, never the body itself. A repeat carries its own body, which must be the same; with it
 * the original answer is whole again, so a chat's memory of keys costs a few dozen bytes each
 * however long its messages are.
 *
 * @param bodyDigest {@link #digestOf} the body
 */
public record RememberedSend(long id, Instant sentAt, String bodyDigest) {

    public RememberedSend {
        Objects.requireNonNull(sentAt, "sentAt");
        Objects.requireNonNull(bodyDigest, "bodyDigest");
    }

    public static RememberedSend of(Message message) {
        return new RememberedSend(message.id(), message.sentAt(), digestOf(message.body()));
    }

    /**
     * The body's SHA-256, its first 128 bits in base64url: 22 characters. Enough that a client
     * sending another body under a used key is told so; not a secret, so no more is needed.
     */
    public static String digestOf(String body) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(body.getBytes(StandardCharsets.UTF_8));
            return Base64.getUrlEncoder().withoutPadding().encodeToString(Arrays.copyOf(digest, 16));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }

    /**
     * The answer to a send made again under {@code key} with {@code body}: the message as it was
     * stored then. A key reused for another body is a client's mistake, refused rather than
     * answered with a message the client did not mean.
     */
    public Sent replay(ChatId chat, IdempotencyKey key, UserId sender, String body) {
        if (!bodyDigest.equals(digestOf(body))) {
            throw new InvalidInputException("idempotency key " + key + " was used for a different message in chat "
                    + chat + "; use a new key for a new message");
        }
        return new Sent(chat, new Message(id, sentAt, sender, body), true);
    }
}
