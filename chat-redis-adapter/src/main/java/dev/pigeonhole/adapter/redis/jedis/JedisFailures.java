package dev.pigeonhole.adapter.redis.jedis;

import dev.pigeonhole.adapter.redis.RedisFailure;
import dev.pigeonhole.adapter.redis.RedisFailure.ErrorReply;
import dev.pigeonhole.adapter.redis.RedisFailure.NoAnswer;
import dev.pigeonhole.adapter.redis.RedisFailure.Trouble;
import dev.pigeonhole.adapter.redis.RedisFailures;
import dev.pigeonhole.domain.model.StoreUnavailableException;
import java.util.NoSuchElementException;
import redis.clients.jedis.exceptions.JedisClusterOperationException;
import redis.clients.jedis.exceptions.JedisConnectionException;
import redis.clients.jedis.exceptions.JedisDataException;
import redis.clients.jedis.exceptions.JedisNoScriptException;
import redis.clients.jedis.exceptions.JedisRedirectionException;

/**
 * Reads what Jedis throws as a {@link RedisFailure} and leaves the verdict to the shared
 * {@link RedisFailures}, so that Jedis and Lettuce fail alike. Also answers the few questions
 * the driver's own mechanics ask of a Jedis exception.
 */
final class JedisFailures {

    private final RedisFailures rules;

    JedisFailures(RedisFailures rules) {
        this.rules = rules;
    }

    String endpoint() {
        return rules.endpoint();
    }

    /**
     * The failure of a function call. An error reply the call itself threw is the function's answer;
     * anything wrapped in another exception happened on the way, such as connecting.
     */
    RuntimeException ofCall(String action, RuntimeException e) {
        RedisFailure failure = read(e);
        return e instanceof JedisDataException
                ? rules.ofCall(action, failure, e)
                : rules.unavailable(action, failure, e);
    }

    /** The failure of anything else the driver does (publish, subscribe): never a function's bug. */
    StoreUnavailableException unavailable(String action, Throwable e) {
        return rules.unavailable(action, read(e), e);
    }

    StoreUnavailableException closed(String action) {
        return noAnswer(action, Trouble.CLOSED);
    }

    /** A failure the driver noticed by itself, with no exception to read. */
    StoreUnavailableException noAnswer(String action, Trouble trouble) {
        return rules.unavailable(action, new NoAnswer(trouble, null), null);
    }

    /** Why, in one line. */
    String reason(Throwable e) {
        return rules.reason(read(e));
    }

    /** Redis's error reply if the failure holds one, else what kept an answer from coming. */
    static RedisFailure read(Throwable e) {
        for (Throwable t : RedisFailure.chain(e)) {
            if (t instanceof JedisDataException reply && reply.getMessage() != null) {
                return new ErrorReply(reply.getMessage());
            }
        }
        return RedisFailure.fromJdk(e).orElseGet(() -> jedisTrouble(e));
    }

    private static NoAnswer jedisTrouble(Throwable e) {
        for (Throwable t : RedisFailure.chain(e)) {
            // The connection pool's way of saying it waited in vain for a free connection.
            if (t instanceof NoSuchElementException) {
                return new NoAnswer(Trouble.NO_FREE_CONNECTION, null);
            }
        }
        return switch (e) {
            case JedisClusterOperationException cluster -> new NoAnswer(Trouble.UNREACHABLE, cluster.getMessage());
            // "Unexpected end of stream": the server closed the connection.
            case JedisConnectionException connection -> new NoAnswer(Trouble.BROKEN, connection.getMessage());
            default -> new NoAnswer(Trouble.UNREACHABLE, e.getClass().getSimpleName());
        };
    }

    static boolean isNoScript(Throwable e) {
        return e instanceof JedisNoScriptException
                || e instanceof JedisDataException && e.getMessage() != null && e.getMessage().startsWith("NOSCRIPT");
    }

    /** True when the server answered with a redirection, so the command did not run. */
    static boolean isRedirection(Throwable e) {
        return RedisFailure.chain(e).stream().anyMatch(JedisRedirectionException.class::isInstance);
    }

    /** True when the failure concerns the connection rather than what was sent over it. */
    static boolean isConnectionProblem(Throwable e) {
        return RedisFailure.chain(e).stream().anyMatch(JedisConnectionException.class::isInstance);
    }
}
