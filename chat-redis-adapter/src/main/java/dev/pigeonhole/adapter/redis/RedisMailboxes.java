package dev.pigeonhole.adapter.redis;

import dev.pigeonhole.domain.model.MailboxFullException;
import dev.pigeonhole.domain.model.UserId;
import dev.pigeonhole.domain.model.limits.Limits;
import dev.pigeonhole.domain.model.live.Channel;
import dev.pigeonhole.domain.model.mailbox.Delivered;
import dev.pigeonhole.domain.model.mailbox.DirectMessage;
import dev.pigeonhole.domain.port.out.Mailboxes;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Objects;

/**
 * One LIST per user (Redis in Action 6.5.1) and a counter beside it for the ids. Deliver, read and
 * acknowledge are one script each: the capacity check, the id, the append and the announcement
 * cannot be split by another client, nor can the look at the head and the trim.
 */
public final class RedisMailboxes implements Mailboxes {

    private final RedisDriver redis;
    private final KeyLayout keys;
    private final Limits limits;
    private final PublishMode publishing;

    public RedisMailboxes(RedisDriver redis, KeyLayout keys, Limits limits, PublishMode publishing) {
        this.redis = Objects.requireNonNull(redis, "redis");
        this.keys = Objects.requireNonNull(keys, "keys");
        this.limits = Objects.requireNonNull(limits, "limits");
        this.publishing = Objects.requireNonNull(publishing, "publishing");
    }

    @Override
    public Delivered deliver(UserId recipient, UserId sender, String body, Instant at) {
        // Kept to the millisecond, so the message answered is the one read back.
        Instant sentAt = at.truncatedTo(ChronoUnit.MILLIS);
        ScriptCall call = new ScriptCall(Scripts.MAILBOX_DELIVER, keys.mailbox(recipient).all(),
                List.of(MessageJson.tailOf(sentAt, sender, body), Integer.toString(limits.mailboxCapacity()),
                        publishing.scriptArgument(), keys.channel(Channel.ofUser(recipient)),
                        MessageJson.mailboxEventHead(recipient)));
        Reply reply = Reply.of(redis.run(call), Scripts.MAILBOX_DELIVER);
        if (reply.is("FULL")) {
            throw new MailboxFullException(recipient, limits.mailboxCapacity());
        }
        if (!reply.is("DELIVERED")) {
            throw reply.unexpected(Scripts.MAILBOX_DELIVER);
        }
        DirectMessage stored = new DirectMessage(reply.number(0), sentAt, sender, body);
        return new Delivered(recipient, stored, Math.toIntExact(reply.number(1)));
    }

    @Override
    public List<DirectMessage> read(UserId owner, int max) {
        ScriptCall call = new ScriptCall(Scripts.MAILBOX_READ, List.of(keys.mailbox(owner).messages()),
                List.of(Integer.toString(max)));
        Reply reply = Reply.of(redis.run(call), Scripts.MAILBOX_READ);
        return reply.texts(0).stream().map(MessageJson::directMessage).toList();
    }

    @Override
    public void acknowledge(UserId owner, long upTo) {
        ScriptCall call = new ScriptCall(Scripts.MAILBOX_ACKNOWLEDGE, keys.mailbox(owner).all(),
                List.of(Long.toString(upTo)));
        Reply reply = Reply.of(redis.run(call), Scripts.MAILBOX_ACKNOWLEDGE);
        if (reply.is("BEYOND_LAST")) {
            throw DirectMessage.beyondLastId(owner, upTo, reply.number(0));
        }
        if (!reply.is("OK")) {
            throw reply.unexpected(Scripts.MAILBOX_ACKNOWLEDGE);
        }
    }
}
