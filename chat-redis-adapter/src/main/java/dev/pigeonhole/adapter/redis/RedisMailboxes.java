package dev.pigeonhole.adapter.redis;

import dev.pigeonhole.domain.model.DirectMessage;
import dev.pigeonhole.domain.model.Limits;
import dev.pigeonhole.domain.model.MailboxFullException;
import dev.pigeonhole.domain.model.UserId;
import dev.pigeonhole.domain.port.out.Mailboxes;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * One LIST per user (Redis in Action 6.5.1). Deliver and take are one script each, so the
 * capacity check and the append, or the read and the trim, cannot be split by another client.
 */
public final class RedisMailboxes implements Mailboxes {

    private final RedisDriver redis;
    private final KeyLayout keys;
    private final Limits limits;

    public RedisMailboxes(RedisDriver redis, KeyLayout keys, Limits limits) {
        this.redis = Objects.requireNonNull(redis, "redis");
        this.keys = Objects.requireNonNull(keys, "keys");
        this.limits = Objects.requireNonNull(limits, "limits");
    }

    @Override
    public int deliver(UserId recipient, DirectMessage message) {
        Objects.requireNonNull(message, "message");
        ScriptCall call = new ScriptCall(Scripts.MAILBOX_DELIVER, List.of(keys.mailbox(recipient)),
                List.of(MessageJson.directMessage(message), Integer.toString(limits.mailboxCapacity())));
        Reply reply = Reply.of(redis.run(call), Scripts.MAILBOX_DELIVER);
        if (reply.is("FULL")) {
            throw new MailboxFullException(recipient, limits.mailboxCapacity());
        }
        if (!reply.is("OK")) {
            throw reply.unexpected(Scripts.MAILBOX_DELIVER);
        }
        return Math.toIntExact(reply.number(0));
    }

    @Override
    public List<DirectMessage> take(UserId owner, int max) {
        ScriptCall call = new ScriptCall(Scripts.MAILBOX_TAKE, List.of(keys.mailbox(owner)), List.of(Integer.toString(max)));
        Reply reply = Reply.of(redis.run(call), Scripts.MAILBOX_TAKE);
        List<String> taken = reply.texts(0);
        List<DirectMessage> messages = new ArrayList<>(taken.size());
        taken.forEach(json -> messages.add(MessageJson.directMessage(json)));
        return List.copyOf(messages);
    }
}
