package dev.pigeonhole.adapter.redis;

import dev.pigeonhole.domain.model.UserId;
import dev.pigeonhole.domain.model.consent.ConsentSnapshot;
import dev.pigeonhole.domain.port.out.Consents;

import java.util.List;
import java.util.Objects;
import java.util.OptionalLong;

/**
 * Each user's consent on Redis: one hash per user in the user's own slot
 * ({@link KeyLayout#consent}), holding the version and the snapshot as JSON ({@link ConsentJson}).
 * A read is one HMGET and a replace one small compare-and-swap script, each one round trip; the
 * rules are all the domain's, applied in Java between the two.
 */
public final class RedisConsents implements Consents {

    private final RedisDriver redis;
    private final KeyLayout keys;
    private final Durability durability;

    public RedisConsents(RedisDriver redis, KeyLayout keys) {
        this(redis, keys, Durability.NONE);
    }

    /** As above; a replace waits for replicas as {@code durability} asks (see {@link Durability}). */
    public RedisConsents(RedisDriver redis, KeyLayout keys, Durability durability) {
        this.durability = Objects.requireNonNull(durability, "durability");
        this.redis = Objects.requireNonNull(redis, "redis");
        this.keys = Objects.requireNonNull(keys, "keys");
    }

    @Override
    public Kept read(UserId user) {
        Reply reply = Reply.of(redis.run(new FunctionCall(Functions.CONSENT_READ, List.of(keys.consent(user)), List.of())),
                Functions.CONSENT_READ);
        if (!reply.is("KEPT")) {
            throw reply.unexpected(Functions.CONSENT_READ);
        }
        @SuppressWarnings("unchecked")
        List<Object> fields = (List<Object>) reply.values().getFirst();
        if (fields.getFirst() == null) {
            return new Kept(ConsentSnapshot.empty(user), 0);
        }
        return new Kept(ConsentJson.read(user, (String) fields.get(1)), Long.parseLong((String) fields.getFirst()));
    }

    @Override
    public boolean replace(UserId user, long version, ConsentSnapshot next) {
        FunctionCall call = new FunctionCall(Functions.CONSENT_REPLACE, List.of(keys.consent(user)),
                List.of(Long.toString(version), ConsentJson.write(next)));
        Durability.Written written = durability.write(redis, call);
        Reply reply = Reply.of(written.reply(), Functions.CONSENT_REPLACE);
        if (!reply.is("REPLACED")) {
            throw reply.unexpected(Functions.CONSENT_REPLACE);
        }
        boolean replaced = reply.number(0) == 1;
        if (replaced && !written.confirmed()) {
            throw durability.notDurable(user + "'s consent", OptionalLong.empty());
        }
        return replaced;
    }
}
