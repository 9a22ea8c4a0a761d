package dev.pigeonhole.adapter.redis;

import dev.pigeonhole.codec.LiveEventCodec;
import dev.pigeonhole.domain.model.MailboxFullException;
import dev.pigeonhole.domain.model.NotDurableException;
import dev.pigeonhole.domain.model.UserId;
import dev.pigeonhole.domain.model.limits.Limits;
import dev.pigeonhole.domain.model.live.Channel;
import dev.pigeonhole.domain.model.mailbox.Delivered;
import dev.pigeonhole.domain.model.mailbox.DirectMessage;
import dev.pigeonhole.domain.model.mailbox.Mailbox;
import dev.pigeonhole.domain.model.mailbox.Sender;
import dev.pigeonhole.domain.port.out.Mailboxes;

import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.OptionalLong;

/**
 * Mailboxes on Redis: the domain's {@link Mailbox} aggregate, run as one Lua function per operation
 * ({@code lua/mailbox.lua} transliterates it step by step) on a LIST per user and a counter beside
 * it (Redis in Action 6.5.1), with the ids strangers sent in a sorted set beside those, so the
 * checks, the id, the append and the announcement cannot be split by another client, nor can the
 * look at the head and the trim. This class only builds each function's call
 * ({@link MailboxScripts}) and turns its answer into the domain's outcome or refusal. One round
 * trip per operation.
 */
public final class RedisMailboxes implements Mailboxes {

    private final RedisDriver redis;
    private final KeyLayout keys;
    private final Limits limits;
    private final PublishMode publishing;
    private final Durability durability;

    public RedisMailboxes(RedisDriver redis, KeyLayout keys, Limits limits, PublishMode publishing) {
        this(redis, keys, limits, publishing, Durability.NONE);
    }

    /**
     * As above; with a {@code durability} that waits for replicas, a delivery and an
     * acknowledgement are answered only once that many replicas hold them, and refused with
     * {@link NotDurableException} when fewer do in time.
     */
    public RedisMailboxes(RedisDriver redis, KeyLayout keys, Limits limits, PublishMode publishing,
                          Durability durability) {
        this.durability = Objects.requireNonNull(durability, "durability");
        this.redis = Objects.requireNonNull(redis, "redis");
        this.keys = Objects.requireNonNull(keys, "keys");
        this.limits = Objects.requireNonNull(limits, "limits");
        this.publishing = Objects.requireNonNull(publishing, "publishing");
    }

    @Override
    public Delivered deliver(UserId recipient, UserId sender, String body, Instant at, Sender from) {
        var script = new MailboxScripts.Deliver(recipient, BookMessageJson.tailOf(at, sender, body), from,
                limits.mailboxCapacity(), publishing, keys.channel(Channel.ofUser(recipient)),
                LiveEventCodec.directMessageDelivered(recipient, at, sender, body));
        Durability.Written written = durability.write(redis, script.call(keys));
        return switch (script.answer(written.reply())) {
            case MailboxScripts.Deliver.Delivered stored -> {
                if (!written.confirmed()) {
                    throw durability.notDurable("message " + stored.id() + " to " + recipient,
                            OptionalLong.of(stored.id()));
                }
                yield new Delivered(recipient, new DirectMessage(stored.id(), at, sender, body), stored.depth());
            }
            case MailboxScripts.Deliver.Full full -> throw new MailboxFullException(recipient, limits.mailboxCapacity());
            case MailboxScripts.Deliver.StrangerRefused refused -> throw Mailbox.strangerRefused(limits.mailboxCapacity());
        };
    }

    @Override
    public List<DirectMessage> read(UserId owner, int max) {
        var script = new MailboxScripts.Read(owner, max);
        return script.answer(redis.run(script.call(keys))).stream().map(BookMessageJson::directMessage).toList();
    }

    @Override
    public void acknowledge(UserId owner, long upTo) {
        var script = new MailboxScripts.Acknowledge(owner, upTo);
        Durability.Written written = durability.write(redis, script.call(keys));
        switch (script.answer(written.reply())) {
            case MailboxScripts.Acknowledge.Acknowledged acknowledged -> {
                if (!written.confirmed()) {
                    throw durability.notDurable(owner + "'s acknowledgement up to " + upTo, OptionalLong.empty());
                }
            }
            case MailboxScripts.Acknowledge.BeyondLast beyond -> throw Mailbox.beyondLastId(owner, upTo, beyond.lastId());
        }
    }
}
