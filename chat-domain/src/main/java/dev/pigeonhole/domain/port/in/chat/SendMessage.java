package dev.pigeonhole.domain.port.in.chat;

import dev.pigeonhole.domain.model.ChatId;
import dev.pigeonhole.domain.model.MessageText;
import dev.pigeonhole.domain.model.UserId;
import dev.pigeonhole.domain.model.chat.IdempotencyKey;
import dev.pigeonhole.domain.model.chat.Message;

import java.util.Objects;
import java.util.Optional;

/** Posts a message to a chat the sender is a member of. One atomic step, no lock. */
public interface SendMessage {

    /** The message as stored; with an idempotency key seen before, the one stored the first time. */
    Message send(Command command);

    /**
     * @param idempotencyKey makes retrying this send harmless: within {@link IdempotencyKey#WINDOW}
     *                       the same sender, chat and key store one message, however often sent
     */
    record Command(ChatId chat, UserId sender, String text, Optional<IdempotencyKey> idempotencyKey) {

        public Command {
            Objects.requireNonNull(chat, "chat");
            Objects.requireNonNull(sender, "sender");
            MessageText.check(text);
            Objects.requireNonNull(idempotencyKey, "idempotencyKey");
        }

        public Command(ChatId chat, UserId sender, String text) {
            this(chat, sender, text, Optional.empty());
        }
    }
}
