package dev.pigeonhole.benchmarks;

import dev.pigeonhole.app.Pigeonhole;
import dev.pigeonhole.domain.model.ChatId;
import dev.pigeonhole.domain.model.UserId;
import dev.pigeonhole.domain.model.chat.PendingChat;
import dev.pigeonhole.domain.model.consent.AddPolicy;
import dev.pigeonhole.domain.port.in.chat.AcknowledgeMessages;
import dev.pigeonhole.domain.port.in.chat.CreateChat;
import dev.pigeonhole.domain.port.in.chat.FetchPending;
import dev.pigeonhole.domain.port.in.chat.SendMessage;
import dev.pigeonhole.domain.port.in.consent.ChooseAddPolicy;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A reader in K chats of a writer's, which catches up as a client does: fetch what is pending,
 * then acknowledge every chat up to its last message in one batch. {@link PendingBenchmark} and
 * the client comparison both measure it, with one new message per chat sent before each catch-up.
 */
public final class PendingReader {

    private static final UserId WRITER = UserId.of("writer");

    private final FetchPending fetchPending;
    private final AcknowledgeMessages acknowledge;
    private final SendMessage sendMessage;
    private final FetchPending.Query query;
    private final UserId reader;
    private final List<SendMessage.Command> nextMessages = new ArrayList<>();

    /**
     * Opens {@code chats} chats of the writer's with {@code reader} in each, and catches up once,
     * so that from here each catch-up sees exactly the messages sent since the last.
     */
    public PendingReader(Pigeonhole system, UserId reader, int chats) {
        this.fetchPending = system.fetchPending();
        this.acknowledge = system.acknowledgeMessages();
        this.sendMessage = system.sendMessage();
        this.query = new FetchPending.Query(reader);
        this.reader = reader;
        // By default a stranger's add is only an invitation: the reader lets the writer add it.
        system.chooseAddPolicy().choose(new ChooseAddPolicy.Command(reader, AddPolicy.ANYONE));
        for (int i = 0; i < chats; i++) {
            ChatId chat = system.createChat().create(new CreateChat.Command(WRITER, Set.of(reader),
                    Optional.empty(), "first")).chat();
            nextMessages.add(new SendMessage.Command(chat, WRITER, "one more message"));
        }
        // Every chat's first message is pending now: a reader who sees fewer is no member of them
        // (an invitee, say), and the catch-ups would time an empty fetch.
        int seen = fetchAndAcknowledge();
        if (seen != chats) {
            throw new IllegalStateException("the reader has " + seen + " messages pending in its " + chats
                    + " chats, not one in each: is it a member of them?");
        }
    }

    /** The writer sends one more message into each of the reader's chats. */
    public void oneNewMessagePerChat() {
        for (SendMessage.Command command : nextMessages) {
            sendMessage.send(command);
        }
    }

    /** What a client does: fetch, then acknowledge every chat that had news, in one batch; returns the messages seen. */
    public int fetchAndAcknowledge() {
        int seen = 0;
        Map<ChatId, Long> upTo = new HashMap<>();
        for (PendingChat pending : fetchPending.pending(query)) {
            if (pending.messages().isEmpty()) {
                continue;
            }
            upTo.put(pending.chat(), pending.messages().getLast().id());
            seen += pending.messages().size();
        }
        if (!upTo.isEmpty()) {
            acknowledge.acknowledge(new AcknowledgeMessages.Batch(reader, upTo));
        }
        return seen;
    }
}
