package dev.pigeonhole.domain.port.in.chat;

import dev.pigeonhole.domain.model.ChatId;
import dev.pigeonhole.domain.model.MessageText;
import dev.pigeonhole.domain.model.UserId;
import dev.pigeonhole.domain.model.chat.Access;
import dev.pigeonhole.domain.model.chat.CreatedChat;

import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/** Opens a group chat with its first message (Redis in Action's {@code create_chat}). */
public interface CreateChat {

    CreatedChat create(Command command);

    /**
     * @param creator the user opening the chat; always a member, and the first message's sender
     * @param others  who else is in it (the creator may be listed too; duplicates collapse)
     * @param chat    the id to use, or empty to have the store assign one
     * @param access  private (only members bring others in) or open (anyone may also join)
     */
    record Command(UserId creator, Set<UserId> others, Optional<ChatId> chat, Access access, String firstMessage) {

        public Command {
            Objects.requireNonNull(creator, "creator");
            Objects.requireNonNull(others, "others");
            Objects.requireNonNull(chat, "chat");
            Objects.requireNonNull(access, "access");
            others = Set.copyOf(others);
            MessageText.check(firstMessage);
        }

        /** A private chat: what a chat is unless its creator opens it to all. */
        public Command(UserId creator, Set<UserId> others, Optional<ChatId> chat, String firstMessage) {
            this(creator, others, chat, Access.PRIVATE, firstMessage);
        }

        /** Creator and others, as one sorted set. */
        public Set<UserId> members() {
            Set<UserId> members = new TreeSet<>(others);
            members.add(creator);
            return members;
        }
    }
}
