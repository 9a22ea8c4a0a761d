package dev.pigeonhole.adapter.redis.lettuce;

import dev.pigeonhole.domain.model.StoreUnavailableException;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisCommandInterruptedException;
import io.lettuce.core.RedisCommandTimeoutException;
import io.lettuce.core.RedisConnectionException;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

/**
 * Waits for Lettuce's futures and turns whatever they fail with into the two exceptions the driver
 * contract allows, so that no Lettuce, Netty or Reactor type reaches a caller (they stay attached
 * as the cause, for the logs).
 */
final class Failures {

    /**
     * Error replies that say the server cannot serve right now (a script is hogging it, it is
     * loading its data, it was demoted by a failover, the cluster lost a shard, memory is full),
     * not that the request was wrong. Retrying later can succeed, so they are an outage.
     */
    private static final List<String> OUTAGE_REPLIES =
            List.of("BUSY", "LOADING", "READONLY", "MASTERDOWN", "CLUSTERDOWN", "TRYAGAIN", "NOREPLICAS", "OOM", "MOVED", "ASK");

    private final String endpoint;
    private final Duration commandTimeout;
    private final Duration patience;

    /**
     * @param endpoint       where Redis is, as messages name it (never with a password)
     * @param commandTimeout what Lettuce enforces on each command
     * @param patience       the longest a caller waits for one operation: Lettuce's own timeouts
     *                       normally end it first, this only bounds the cases they do not cover
     */
    Failures(String endpoint, Duration commandTimeout, Duration patience) {
        this.endpoint = endpoint;
        this.commandTimeout = commandTimeout;
        this.patience = patience;
    }

    String endpoint() {
        return endpoint;
    }

    /** A deadline {@link #patience} from now, for {@link #await(CompletionStage, String, long)}. */
    long deadline() {
        return System.nanoTime() + patience.toNanos();
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

    /**
     * The value of {@code stage}, or the exception the driver contract prescribes. Never throws a
     * client exception; restores the interrupt flag if interrupted.
     */
    <T> T await(CompletionStage<T> stage, String action, long deadline) {
        try {
            return stage.toCompletableFuture().get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (ExecutionException e) {
            throw translate(e.getCause(), action);
        } catch (TimeoutException e) {
            throw new StoreUnavailableException("Redis at " + endpoint + " did not answer " + action + " within "
                    + patience.toMillis() + " ms", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StoreUnavailableException("interrupted while waiting for Redis at " + endpoint + " (" + action + ")", e);
        } catch (RuntimeException e) {
            // CancellationException, or a failure thrown before any future existed
            throw translate(e, action);
        }
    }

    /** Maps a failure of {@code action} to a {@link StoreUnavailableException} or, for a script bug, an {@link IllegalStateException}. */
    RuntimeException translate(Throwable failure, String action) {
        Throwable cause = unwrap(failure);
        if (cause instanceof StoreUnavailableException translated) {
            return translated;
        }
        if (cause instanceof RedisCommandExecutionException reply) {
            String message = String.valueOf(reply.getMessage());
            if (isOutage(message)) {
                return new StoreUnavailableException("Redis at " + endpoint + " cannot serve " + action + " right now: " + message, reply);
            }
            return new IllegalStateException(action + " failed on Redis at " + endpoint + ": " + message, reply);
        }
        if (cause instanceof RedisCommandTimeoutException) {
            return new StoreUnavailableException("Redis at " + endpoint + " did not answer " + action + " within "
                    + commandTimeout.toMillis() + " ms", cause);
        }
        if (cause instanceof RedisConnectionException) {
            return new StoreUnavailableException("cannot connect to Redis at " + endpoint + " for " + action + ": "
                    + describe(cause), cause);
        }
        if (cause instanceof RedisCommandInterruptedException || cause instanceof InterruptedException) {
            Thread.currentThread().interrupt();
            return new StoreUnavailableException("interrupted while waiting for Redis at " + endpoint + " (" + action + ")", cause);
        }
        if (cause instanceof CancellationException) {
            return new StoreUnavailableException(action + " on Redis at " + endpoint + " was cancelled", cause);
        }
        // "Currently not connected", "Connection disconnected", "Connection closed", an I/O or
        // partition error: all say Redis could not be reached, not that the request was wrong.
        return new StoreUnavailableException("Redis at " + endpoint + " is unavailable for " + action + ": " + describe(cause), cause);
    }

    private static boolean isOutage(String message) {
        for (String prefix : OUTAGE_REPLIES) {
            if (message.startsWith(prefix + " ") || message.equals(prefix)) {
                return true;
            }
        }
        return false;
    }

    private static Throwable unwrap(Throwable failure) {
        Throwable current = failure;
        while ((current instanceof ExecutionException || current instanceof CompletionException) && current.getCause() != null) {
            current = current.getCause();
        }
        return current;
    }

    /** The message, followed by the root cause's when it adds something (e.g. "Connection refused"). */
    private static String describe(Throwable failure) {
        String message = failure.getMessage() != null ? failure.getMessage() : failure.getClass().getSimpleName();
        Throwable root = failure;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        if (root != failure && root.getMessage() != null && !message.contains(root.getMessage())) {
            message += " (" + root.getMessage() + ")";
        }
        return message;
    }
}
