package dev.pigeonhole.adapter.redis;

import dev.pigeonhole.domain.model.UserId;
import dev.pigeonhole.domain.port.out.PresenceRegistry;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/** "Who's online" as one sorted set of user → last-seen epoch millis. */
public final class RedisPresenceRegistry implements PresenceRegistry {

    /** Lua unpacks the users onto its stack, which holds a few thousand values at most. */
    private static final int USERS_PER_CALL = 1_000;

    private final RedisDriver redis;
    private final KeyLayout keys;

    public RedisPresenceRegistry(RedisDriver redis, KeyLayout keys) {
        this.redis = Objects.requireNonNull(redis, "redis");
        this.keys = Objects.requireNonNull(keys, "keys");
    }

    @Override
    public Optional<Instant> touch(UserId user, Instant at) {
        FunctionCall call = new FunctionCall(Functions.PRESENCE_TOUCH, List.of(keys.presence()),
                List.of(user.value(), Long.toString(at.toEpochMilli())));
        Long previous = Reply.of(redis.run(call), Functions.PRESENCE_TOUCH).optionalNumber(0);
        return Optional.ofNullable(previous).map(Instant::ofEpochMilli);
    }

    @Override
    public Set<UserId> seenSince(Instant since) {
        FunctionCall call = new FunctionCall(Functions.PRESENCE_SINCE, List.of(keys.presence()),
                List.of(Long.toString(since.toEpochMilli())));
        Set<UserId> seen = new HashSet<>();
        Reply.of(redis.run(call), Functions.PRESENCE_SINCE).texts(0).forEach(user -> seen.add(UserId.of(user)));
        return Set.copyOf(seen);
    }

    @Override
    public long countSince(Instant since) {
        FunctionCall call = new FunctionCall(Functions.PRESENCE_COUNT, List.of(keys.presence()),
                List.of(Long.toString(since.toEpochMilli())));
        return Reply.of(redis.run(call), Functions.PRESENCE_COUNT).number(0);
    }

    /** One call per thousand users asked about, all in one pipelined round trip. */
    @Override
    public Set<UserId> seenSince(Instant since, Set<UserId> among) {
        List<UserId> asked = List.copyOf(among);
        List<FunctionCall> calls = new ArrayList<>();
        for (int from = 0; from < asked.size(); from += USERS_PER_CALL) {
            List<String> arguments = new ArrayList<>();
            arguments.add(Long.toString(since.toEpochMilli()));
            asked.subList(from, Math.min(asked.size(), from + USERS_PER_CALL))
                    .forEach(user -> arguments.add(user.value()));
            calls.add(new FunctionCall(Functions.PRESENCE_AMONG, List.of(keys.presence()), arguments));
        }
        Set<UserId> seen = new HashSet<>();
        if (!calls.isEmpty()) {
            redis.runAll(calls).forEach(reply ->
                    Reply.of(reply, Functions.PRESENCE_AMONG).texts(0).forEach(user -> seen.add(UserId.of(user))));
        }
        return Set.copyOf(seen);
    }

    @Override
    public List<UserId> prune(Instant before) {
        FunctionCall call = new FunctionCall(Functions.PRESENCE_PRUNE, List.of(keys.presence()),
                List.of(Long.toString(before.toEpochMilli())));
        List<UserId> pruned = new ArrayList<>();
        Reply.of(redis.run(call), Functions.PRESENCE_PRUNE).texts(0).forEach(user -> pruned.add(UserId.of(user)));
        return List.copyOf(pruned);
    }
}
