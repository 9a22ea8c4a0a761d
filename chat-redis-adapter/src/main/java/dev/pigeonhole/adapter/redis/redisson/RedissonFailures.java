package dev.pigeonhole.adapter.redis.redisson;

import dev.pigeonhole.adapter.redis.FutureFailures;
import dev.pigeonhole.adapter.redis.RedisFailure;
import dev.pigeonhole.adapter.redis.RedisFailure.ErrorReply;
import dev.pigeonhole.adapter.redis.RedisFailure.NoAnswer;
import dev.pigeonhole.adapter.redis.RedisFailure.Trouble;
import dev.pigeonhole.adapter.redis.RedisFailures;
import dev.pigeonhole.domain.model.StoreUnavailableException;
import org.redisson.RedissonShutdownException;
import org.redisson.client.RedisAskException;
import org.redisson.client.RedisAuthRequiredException;
import org.redisson.client.RedisConnectionException;
import org.redisson.client.RedisException;
import org.redisson.client.RedisMovedException;
import org.redisson.client.RedisNoScriptException;
import org.redisson.client.RedisOutOfMemoryException;
import org.redisson.client.RedisReadonlyException;
import org.redisson.client.RedisRedirectException;
import org.redisson.client.RedisRetryException;
import org.redisson.client.RedisTimeoutException;
import org.redisson.client.RedisWrongPasswordException;

import java.time.Duration;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Pattern;

/**
 * Waits for Redisson's futures, reads whatever they fail with as a {@link RedisFailure}, and leaves
 * the verdict to the shared {@link RedisFailures}, so that Redisson fails as the other clients do
 * and none of its types reaches a caller (they stay attached as the cause, for the logs).
 */
final class RedissonFailures extends FutureFailures {

    /**
     * Redisson appends where an error reply came from ({@code . channel: [id: ...] data: ...},
     * {@code . command: ...}) to Redis's own words; only Redis's words are the reply.
     */
    private static final Pattern REDISSON_SUFFIX = Pattern.compile(
            "\\. (channel|command|node|connection|params|data)[: ].*$", Pattern.DOTALL);

    RedissonFailures(RedisFailures rules, Duration patience) {
        super(rules, patience);
    }

    /** What {@code stage} failed with by the deadline, or null if it succeeded or is still running. */
    Throwable failureOf(CompletionStage<?> stage, long deadline) {
        try {
            stage.toCompletableFuture().get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            return null;
        } catch (ExecutionException e) {
            return e.getCause();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return e;
        } catch (TimeoutException | RuntimeException e) {
            return null;
        }
    }

    @Override
    protected RuntimeException translate(Throwable failure, String action) {
        Throwable cause = RedisFailures.unwrapped(failure);
        if (cause instanceof StoreUnavailableException translated) {
            return translated;
        }
        return rules.unavailable(action, read(cause), cause);
    }

    /** A function call's failure: the function's own error reply, or trouble on the way to it. */
    @Override
    protected RuntimeException ofCall(Throwable failure, String action) {
        Throwable cause = RedisFailures.unwrapped(failure);
        if (cause instanceof StoreUnavailableException translated) {
            return translated;
        }
        return rules.ofCall(action, read(cause), cause);
    }

    StoreUnavailableException unavailable(String action, Trouble trouble, String detail) {
        return rules.unavailable(action, new NoAnswer(trouble, detail), null);
    }

    /** Redis's error reply if the failure holds one (as a failed handshake does), else what kept an answer from coming. */
    static RedisFailure read(Throwable failure) {
        for (Throwable t : RedisFailure.chain(failure)) {
            if (isErrorReply(t)) {
                return new ErrorReply(REDISSON_SUFFIX.matcher(t.getMessage()).replaceFirst(""));
            }
        }
        for (Throwable t : RedisFailure.chain(failure)) {
            if (t instanceof RedisTimeoutException) {
                return new NoAnswer(Trouble.TIMED_OUT, null);
            }
            if (t instanceof InterruptedException) {
                Thread.currentThread().interrupt();
                return new NoAnswer(Trouble.INTERRUPTED, null);
            }
            if (t instanceof RedissonShutdownException) {
                return new NoAnswer(Trouble.CLOSED, null);
            }
        }
        return RedisFailure.fromJdk(failure).orElseGet(() -> switch (failure) {
            case CancellationException e -> new NoAnswer(Trouble.BROKEN, "cancelled");
            case RedisConnectionException e -> new NoAnswer(Trouble.UNREACHABLE, null);
            default -> new NoAnswer(Trouble.UNREACHABLE, failure.getMessage());
        });
    }

    /**
     * Whether Redis said this: Redisson raises its own {@link RedisException} for an error reply
     * and a subclass for the codes it acts on, and other subclasses (connection, timeout) for
     * trouble of its own. An error reply starts with Redis's code, in capitals.
     */
    private static boolean isErrorReply(Throwable t) {
        boolean replyType = t.getClass() == RedisException.class
                || t instanceof RedisRedirectException || t instanceof RedisRetryException
                || t instanceof RedisAuthRequiredException || t instanceof RedisWrongPasswordException
                || t instanceof RedisReadonlyException || t instanceof RedisOutOfMemoryException
                || t instanceof RedisNoScriptException || t instanceof RedisMovedException || t instanceof RedisAskException;
        String message = t.getMessage();
        return replyType && message != null && message.matches("(?s)^[A-Z][A-Z_]*( .*)?$");
    }
}
