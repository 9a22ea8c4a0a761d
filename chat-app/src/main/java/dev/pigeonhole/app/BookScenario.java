package dev.pigeonhole.app;

import dev.pigeonhole.domain.model.ChatId;
import dev.pigeonhole.domain.model.UserId;
import dev.pigeonhole.domain.model.chat.CreatedChat;
import dev.pigeonhole.domain.model.chat.Message;
import dev.pigeonhole.domain.model.chat.PendingChat;
import dev.pigeonhole.domain.model.consent.AddPolicy;
import dev.pigeonhole.domain.model.mailbox.DirectMessage;
import dev.pigeonhole.domain.port.in.chat.AcknowledgeMessages;
import dev.pigeonhole.domain.port.in.chat.CreateChat;
import dev.pigeonhole.domain.port.in.chat.FetchPending;
import dev.pigeonhole.domain.port.in.chat.LeaveChat;
import dev.pigeonhole.domain.port.in.chat.SendMessage;
import dev.pigeonhole.domain.port.in.consent.ChooseAddPolicy;
import dev.pigeonhole.domain.port.in.mailbox.AcknowledgeDirectMessages;
import dev.pigeonhole.domain.port.in.mailbox.DeliverDirectMessage;
import dev.pigeonhole.domain.port.in.mailbox.ReadDirectMessages;

import java.io.PrintWriter;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Redis in Action's figure 6.12, played through the use cases: jason22 and jeff24 share chat
 * 827, six messages are sent, and jason22 has seen five of them. Then a direct message, the
 * book's section 6.5.1. The book has no consent: jason22 lets anyone add him, so jeff24's add is
 * the book's, not an invitation.
 */
final class BookScenario {

    static final UserId JASON = UserId.of("jason22");
    static final UserId JEFF = UserId.of("jeff24");
    static final ChatId CHAT = ChatId.of("827");

    private final Pigeonhole app;
    private final PrintWriter out;

    BookScenario(Pigeonhole app, PrintWriter out) {
        this.app = app;
        this.out = out;
    }

    /** @return jason22's pending chats at the end, for tests */
    List<PendingChat> run() {
        // In the book anyone adds anyone; jason22 says so for himself, whatever the server's default.
        app.chooseAddPolicy().choose(new ChooseAddPolicy.Command(JASON, AddPolicy.ANYONE));
        CreatedChat created = app.createChat().create(
                new CreateChat.Command(JEFF, Set.of(JASON), Optional.of(CHAT), "hey jason, six messages coming"));
        show(created.chat(), created.firstMessage());
        for (int n = 2; n <= 6; n++) {
            UserId sender = n == 3 ? JASON : JEFF;
            show(CHAT, app.sendMessage().send(new SendMessage.Command(CHAT, sender, "message number " + n)));
        }

        app.acknowledgeMessages().acknowledge(new AcknowledgeMessages.Command(JASON, CHAT, 5));
        out.println();
        out.println("jason22 acknowledged up to 5. Pending for jason22:");
        List<PendingChat> pending = app.fetchPending().pending(new FetchPending.Query(JASON));
        for (PendingChat chat : pending) {
            out.printf("  chat %s: %d unread%s%n", chat.chat(), chat.unread(), chat.gap() ? " (gap)" : "");
            chat.messages().forEach(message -> show(chat.chat(), message));
        }

        app.deliverDirectMessage().deliver(new DeliverDirectMessage.Command(JEFF, JASON, "psst, a direct message"));
        // Reading removes nothing: the mailbox lets go of a message only once it is acknowledged,
        // so a reader that crashes in between reads it again (at-least-once, like pending).
        List<DirectMessage> mailbox = app.readDirectMessages().read(new ReadDirectMessages.Command(JASON, 10));
        out.println();
        out.println("jason22 reads the mailbox, then acknowledges what it read:");
        mailbox.forEach(message -> out.printf("  %d %s: %s%n", message.id(), message.sender(), message.body()));
        if (!mailbox.isEmpty()) {
            app.acknowledgeDirectMessages().acknowledge(
                    new AcknowledgeDirectMessages.Command(JASON, mailbox.getLast().id()));
        }

        // Both leave, so the chat is deleted and the demo can run again on the same Redis.
        app.leaveChat().leave(new LeaveChat.Command(CHAT, JASON));
        app.leaveChat().leave(new LeaveChat.Command(CHAT, JEFF));
        out.println();
        out.println("Both left; the last one out deleted chat 827.");
        return pending;
    }

    private void show(ChatId chat, Message message) {
        out.printf("  [%s #%d] %s: %s%n", chat, message.id(), message.sender(), message.body());
    }
}
