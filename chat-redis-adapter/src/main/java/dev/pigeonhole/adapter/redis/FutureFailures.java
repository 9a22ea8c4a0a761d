package dev.pigeonhole.adapter.redis;

import dev.pigeonhole.adapter.redis.RedisFailure.NoAnswer;
import dev.pigeonhole.adapter.redis.RedisFailure.Trouble;
import dev.pigeonhole.domain.model.StoreUnavailableException;

import java.time.Duration;
import java.util.concurrent.CompletionStage;

/**
 * What the clients whose calls are futures (Lettuce, Redisson, GLIDE) share in waiting for an
 * answer and reading a failure: a deadline, the wait, and the two readings of what went wrong,
 * which {@link RedisFailures} decides. A subclass says only what its client's exceptions are.
 */
public abstract class FutureFailures {

    protected final RedisFailures rules;
    private final Duration patience;

    /**
     * @param patience the longest a caller waits for one operation: the client's own timeouts
     *                 normally end it first, this only bounds the cases they do not cover
     */
    protected FutureFailures(RedisFailures rules, Duration patience) {
        this.rules = rules;
        this.patience = patience;
    }

    public String endpoint() {
        return rules.endpoint();
    }

    /** A deadline {@code patience} from now, for the {@code await} methods. */
    public long deadline() {
        return System.nanoTime() + patience.toNanos();
    }

    /** The value of {@code stage}; whatever it fails with is unavailability, never a client exception. */
    public <T> T await(CompletionStage<T> stage, String action, long deadline) {
        return rules.await(stage, action, deadline, patience, failure -> translate(failure, action));
    }

    /** The reply of a function call; an error reply from the function itself is an {@link IllegalStateException}. */
    public <T> T awaitCall(CompletionStage<T> stage, String action, long deadline) {
        return rules.await(stage, action, deadline, patience, failure -> ofCall(failure, action));
    }

    /** The answer to anything asked of a driver that was closed. */
    public StoreUnavailableException closed(String action) {
        return rules.unavailable(action, new NoAnswer(Trouble.CLOSED, null), null);
    }

    /** Any failure of {@code action} as unavailability: nothing but a function can have a bug of its own. */
    protected abstract RuntimeException translate(Throwable failure, String action);

    /** The failure of a function call, as {@link RedisFailures#ofCall} reads it. */
    protected abstract RuntimeException ofCall(Throwable failure, String action);
}
