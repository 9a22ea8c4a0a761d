package dev.pigeonhole.adapter.redis;

import dev.pigeonhole.codec.LiveEventCodec;
import dev.pigeonhole.domain.model.UserId;
import dev.pigeonhole.domain.model.mailbox.Mailbox;
import dev.pigeonhole.domain.model.mailbox.Sender;

import java.util.List;

/**
 * The Java side of the mailbox scripts ({@code lua/mailbox.lua} and the three that call it): one
 * record per script, which lays out its keys and arguments once and decodes its answer once into
 * a record of its own, so nothing past this class reads a reply by position or a status by name.
 */
final class MailboxScripts {

    private static final RedisFunction DELIVER = Functions.writing("mailbox_deliver");
    private static final RedisFunction READ = Functions.reading("mailbox_read");
    private static final RedisFunction ACKNOWLEDGE = Functions.writing("mailbox_acknowledge");

    private MailboxScripts() {
    }

    /**
     * mailbox_deliver.lua: the message's JSON after its id, and its announcement but for the id,
     * which only the script knows.
     *
     * @param from whether the sender shares a chat with the recipient, which decides its share
     */
    record Deliver(UserId recipient, String tail, Sender from, int capacity, PublishMode publishing, String channel,
                   LiveEventCodec.Unnumbered event) {

        sealed interface Answer permits Delivered, Full, StrangerRefused {
        }

        /** Stored under {@code id}, the mailbox then holding {@code depth} messages. */
        record Delivered(long id, int depth) implements Answer {
        }

        record Full() implements Answer {
        }

        /** A stranger's delivery found the strangers' share taken, or the mailbox full. */
        record StrangerRefused() implements Answer {
        }

        /** The share is the aggregate's to say; the script only compares with it. */
        FunctionCall call(KeyLayout layout) {
            return new FunctionCall(DELIVER, layout.mailbox(recipient).all(), List.of(tail, from.name(),
                    Integer.toString(capacity), Integer.toString(Mailbox.strangersShare(capacity)),
                    publishing.scriptArgument(), channel, event.beforeId(), event.afterId()));
        }

        Answer answer(Object raw) {
            Reply reply = Reply.of(raw, DELIVER);
            return switch (reply.status()) {
                case "DELIVERED" -> new Delivered(reply.number(0), Math.toIntExact(reply.number(1)));
                case "FULL" -> new Full();
                case "STRANGER_REFUSED" -> new StrangerRefused();
                default -> throw reply.unexpected(DELIVER);
            };
        }
    }

    /** mailbox_read.lua: the oldest {@code max} messages held, as the JSON they are stored as. */
    record Read(UserId owner, int max) {

        FunctionCall call(KeyLayout layout) {
            return new FunctionCall(READ, layout.mailbox(owner).all(), List.of(Integer.toString(max)));
        }

        List<String> answer(Object raw) {
            Reply reply = Reply.of(raw, READ);
            if (!reply.is("READ")) {
                throw reply.unexpected(READ);
            }
            return reply.texts(0);
        }
    }

    /** mailbox_acknowledge.lua. */
    record Acknowledge(UserId owner, long upTo) {

        sealed interface Answer permits Acknowledged, BeyondLast {
        }

        record Acknowledged() implements Answer {
        }

        /** {@code upTo} is past {@code lastId}, the last id the mailbox handed out; nothing changed. */
        record BeyondLast(long lastId) implements Answer {
        }

        FunctionCall call(KeyLayout layout) {
            return new FunctionCall(ACKNOWLEDGE, layout.mailbox(owner).all(), List.of(Long.toString(upTo)));
        }

        Answer answer(Object raw) {
            Reply reply = Reply.of(raw, ACKNOWLEDGE);
            return switch (reply.status()) {
                case "ACKNOWLEDGED" -> new Acknowledged();
                case "BEYOND_LAST" -> new BeyondLast(reply.number(0));
                default -> throw reply.unexpected(ACKNOWLEDGE);
            };
        }
    }
}
