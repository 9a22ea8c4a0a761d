package dev.pigeonhole.adapter.redis.lettuce;

import dev.pigeonhole.adapter.redis.FutureFailures;
import dev.pigeonhole.adapter.redis.RedisFailure;
import dev.pigeonhole.adapter.redis.RedisFailure.ErrorReply;
import dev.pigeonhole.adapter.redis.RedisFailure.NoAnswer;
import dev.pigeonhole.adapter.redis.RedisFailure.Trouble;
import dev.pigeonhole.adapter.redis.RedisFailures;
import dev.pigeonhole.domain.model.StoreUnavailableException;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisCommandInterruptedException;
import io.lettuce.core.RedisCommandTimeoutException;
import io.lettuce.core.RedisConnectionException;
import io.netty.channel.unix.Errors;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;

/**
 * Waits for Lettuce's futures, reads whatever they fail with as a {@link RedisFailure}, and leaves
 * the verdict to the shared {@link RedisFailures}, so that Jedis and Lettuce fail alike and no
 * Lettuce, Netty or Reactor type reaches a caller (they stay attached as the cause, for the logs).
 */
final class LettuceFailures extends FutureFailures {

    LettuceFailures(RedisFailures rules, Duration patience) {
        super(rules, patience);
    }

    <T> T await(CompletionStage<T> stage, String action) {
        return await(stage, action, deadline());
    }

    /** Like {@link #await(CompletionStage, String)}, for a request that may also fail before it returns its future. */
    <T> T call(Supplier<? extends CompletionStage<T>> request, String action) {
        CompletionStage<T> stage;
        try {
            stage = request.get();
        } catch (RuntimeException e) {
            throw translate(e, action);
        }
        return await(stage, action, deadline());
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
        RedisFailure read = read(cause);
        return cause instanceof RedisCommandExecutionException
                ? rules.ofCall(action, read, cause)
                : rules.unavailable(action, read, cause);
    }

    /**
     * True when Redis answered that the keys' slot is served elsewhere (MOVED, ASK): the command
     * did not run. Lettuce follows these itself for the commands it routes, not for a command sent
     * down one node's connection.
     */
    static boolean isRedirection(Throwable failure) {
        return RedisFailure.chain(failure).stream().anyMatch(t -> t instanceof RedisCommandExecutionException reply
                && reply.getMessage() != null
                && (reply.getMessage().startsWith("MOVED ") || reply.getMessage().startsWith("ASK ")));
    }

    /** Redis's error reply if the failure holds one (as a failed handshake does), else what kept an answer from coming. */
    private static RedisFailure read(Throwable failure) {
        for (Throwable t : RedisFailure.chain(failure)) {
            if (t instanceof RedisCommandExecutionException reply && reply.getMessage() != null) {
                return new ErrorReply(reply.getMessage());
            }
        }
        for (Throwable t : RedisFailure.chain(failure)) {
            if (t instanceof RedisCommandTimeoutException) {
                return new NoAnswer(Trouble.TIMED_OUT, null);
            }
            if (t instanceof RedisCommandInterruptedException || t instanceof InterruptedException) {
                Thread.currentThread().interrupt();
                return new NoAnswer(Trouble.INTERRUPTED, null);
            }
        }
        return RedisFailure.fromJdk(failure).or(() -> fromEpoll(failure)).orElseGet(() -> switch (failure) {
            // Commands in flight when a connection drops are cancelled with it.
            case CancellationException e -> new NoAnswer(Trouble.BROKEN, "cancelled");
            case RedisConnectionException e -> new NoAnswer(Trouble.UNREACHABLE, null);
            // "Currently not connected", "Connection closed": Redis could not be reached.
            default -> new NoAnswer(Trouble.UNREACHABLE, failure.getMessage());
        });
    }

    /**
     * A socket error that Netty's epoll transport read: its own {@code IOException} where NIO
     * raises the JDK's {@code SocketException} ("Connection reset"), so that a reset reads as a
     * broken connection on either transport. A refused connect is a {@code ConnectException} on both.
     */
    static Optional<NoAnswer> fromEpoll(Throwable failure) {
        return RedisFailure.chain(failure).stream()
                .filter(Errors.NativeIoException.class::isInstance)
                .findFirst()
                .map(error -> new NoAnswer(Trouble.BROKEN, error.getMessage()));
    }
}
