package dev.pigeonhole.adapter.redis;

import dev.pigeonhole.adapter.redis.RedisFailure.ErrorReply;
import dev.pigeonhole.adapter.redis.RedisFailure.NoAnswer;
import dev.pigeonhole.adapter.redis.RedisFailure.Trouble;
import dev.pigeonhole.domain.model.StoreUnavailableException;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a failure talking to Redis means for the caller, decided once for every client: the same
 * Redis answer is the same domain error with the same message on Jedis, Lettuce and Redisson.
 *
 * <ul>
 * <li>A refusal Redis gives about itself or about this client is
 * {@link StoreUnavailableException}: wrong or missing credentials and missing permissions (a
 * misconfiguration, and the message says so, as does a failed TLS handshake), a read-only replica, a server still loading or
 * unable to save, a cluster in flux.</li>
 * <li>Any other error reply to a function call is an {@link IllegalStateException}: the function is wrong,
 * and retrying will not help.</li>
 * <li>Any other error reply to anything else (connecting, publishing, subscribing) is unavailable
 * too, since no function of ours caused it.</li>
 * <li>No answer at all (a timeout, a refused or broken connection) is unavailable.</li>
 * </ul>
 *
 * <p>Messages read {@code Redis at <endpoint> could not serve <action>: <reason>}. The endpoint is
 * {@link RedisSettings.Endpoint#toString()}, which never shows a password, and whatever a client
 * adds is stripped of the user info a URL in it may carry.
 */
public final class RedisFailures {

    private static final int MAX_DETAIL = 200;
    private static final Pattern USER_INFO = Pattern.compile("(\\b[a-zA-Z][a-zA-Z0-9+.-]*://)[^/@\\s]*@");
    /** Redis's words for a command the user may not run: {@code ... to run the 'function|load' command}. */
    private static final Pattern DENIED_COMMAND = Pattern.compile("permissions to run the '([^']+)' command");
    /** What a function's {@code redis.call} answers when the user may not run the command it calls (with code ERR). */
    private static final String DENIED_IN_FUNCTION = "The user executing the script can't run this command";
    /** How every message about a refusal of this client's credentials or permissions begins its reason. */
    private static final String MISCONFIGURED = "misconfigured: ";
    /** Where an operator finds the permissions the adapter needs. */
    static final String SEE_ACL = "see the README's ACL line";

    private final String endpoint;
    private final String user;
    private final long connectTimeoutMillis;
    private final long commandTimeoutMillis;

    public RedisFailures(RedisSettings settings) {
        this.endpoint = settings.endpoint().toString();
        String configured = settings.endpoint().credentials().user();
        this.user = configured.isEmpty() ? "default" : configured;
        this.connectTimeoutMillis = settings.connectTimeout().toMillis();
        this.commandTimeoutMillis = settings.commandTimeout().toMillis();
    }

    /** Where Redis is, as every message names it. */
    public String endpoint() {
        return endpoint;
    }

    /**
     * The failure of a function call ({@code action}: "function chat_send_v1", or a library
     * command on a node): "function not found" is {@link MissingFunctionException}, any other
     * error reply that is not a refusal comes from the function itself and is a bug; everything
     * else is unavailability.
     */
    public RuntimeException ofCall(String action, RedisFailure failure, Throwable cause) {
        if (failure instanceof ErrorReply reply && MissingFunctionException.isMissingFunction(reply.text())) {
            return new MissingFunctionException(action, cause);
        }
        if (failure instanceof ErrorReply reply && Refusal.of(reply).isEmpty() && !deniedInFunction(reply)) {
            return callError(action, reply.text(), cause);
        }
        return unavailable(action, failure, cause);
    }

    /**
     * The value of a client's future by {@code deadline} (in {@link System#nanoTime()}'s terms),
     * for the clients whose calls are futures (Lettuce, Redisson, GLIDE): what it fails with is
     * read by {@code failed}, which knows that client's exceptions; no value by the deadline is
     * {@link Trouble#TIMED_OUT} after {@code patience} in all, an interrupted wait
     * {@link Trouble#INTERRUPTED}.
     */
    public <T> T await(CompletionStage<T> stage, String action, long deadline, Duration patience,
                       Function<Throwable, RuntimeException> failed) {
        try {
            return stage.toCompletableFuture().get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (ExecutionException e) {
            throw failed.apply(e.getCause());
        } catch (TimeoutException e) {
            throw unavailable(action, new NoAnswer(Trouble.TIMED_OUT, "waited " + patience.toMillis() + " ms in all"), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw unavailable(action, new NoAnswer(Trouble.INTERRUPTED, null), e);
        } catch (RuntimeException e) {
            // CancellationException, or a failure thrown before any future existed
            throw failed.apply(e);
        }
    }

    /** What a future failed with, out of the wrappers the futures put around it. */
    public static Throwable unwrapped(Throwable failure) {
        Throwable current = failure;
        while ((current instanceof ExecutionException || current instanceof CompletionException) && current.getCause() != null) {
            current = current.getCause();
        }
        return current;
    }

    /** The failure of anything but a function's own work: connecting, publishing, subscribing. */
    public StoreUnavailableException unavailable(String action, RedisFailure failure, Throwable cause) {
        return new StoreUnavailableException("Redis at " + endpoint + " could not serve " + action + ": " + reason(failure), cause);
    }

    /**
     * True when the failure is Redis refusing this client's credentials or permissions, which
     * waiting will not mend: at start, that is the reason to give rather than "did not answer".
     */
    public static boolean isMisconfiguration(StoreUnavailableException failure) {
        return failure.getMessage() != null && failure.getMessage().contains(": " + MISCONFIGURED);
    }

    /** A function answered with an error of its own making: a bug, not an outage. */
    public static IllegalStateException callError(String action, String reply, Throwable cause) {
        return new IllegalStateException("Redis " + action + " failed: " + reply, cause);
    }

    /** Why, in one line, for a message that says what was being done and where. */
    public String reason(RedisFailure failure) {
        return switch (failure) {
            case ErrorReply reply -> meaning(reply) + " (" + clean(reply.text()) + ")";
            case NoAnswer(RedisFailure.Trouble trouble, String detail) -> {
                String said = clean(detail);
                yield describe(trouble) + (said.isEmpty() ? "" : " (" + said + ")");
            }
        };
    }

    /**
     * What Redis's error says about the deployment. A missing permission names the user, and the
     * command when Redis names it, so that an operator can mend the ACL without a debugger.
     */
    private String meaning(ErrorReply reply) {
        if (deniedInFunction(reply)) {
            return MISCONFIGURED + "the Redis user '" + user + "' may not run a command the function runs; " + SEE_ACL;
        }
        Optional<Refusal> refusal = Refusal.of(reply);
        if (refusal.isEmpty()) {
            return "it answered with an error";
        }
        if (refusal.get() == Refusal.NOPERM) {
            Matcher command = DENIED_COMMAND.matcher(reply.text());
            return command.find()
                    ? MISCONFIGURED + "the Redis user '" + user + "' may not run "
                            + command.group(1).replace('|', ' ').toUpperCase(Locale.ROOT) + "; " + SEE_ACL
                    : MISCONFIGURED + "the Redis user '" + user + "' may not use a key or channel the adapter needs "
                            + "(the ACL's ~ and & patterns must cover the key prefix); " + SEE_ACL;
        }
        return refusal.get().meaning;
    }

    private static boolean deniedInFunction(ErrorReply reply) {
        return reply.text().contains(DENIED_IN_FUNCTION);
    }

    private String describe(RedisFailure.Trouble trouble) {
        return switch (trouble) {
            case TIMED_OUT -> "no answer within " + commandTimeoutMillis + " ms";
            case CONNECT_TIMED_OUT -> "no connection within " + connectTimeoutMillis + " ms";
            case REFUSED -> "connection refused";
            case BROKEN -> "connection broken";
            case UNKNOWN_HOST -> "unknown host";
            case NO_ROUTE -> "no route to host";
            // A handshake refused (an untrusted or misnamed certificate, none where one is asked
            // for, TLS to a port that speaks none) fails the same way on every attempt.
            case TLS_FAILED -> MISCONFIGURED + "TLS failed";
            case NO_FREE_CONNECTION -> "no pooled connection became free within " + commandTimeoutMillis + " ms";
            case INTERRUPTED -> "interrupted while waiting";
            case CLOSED -> "the driver is closed";
            case UNREACHABLE -> "not reachable";
        };
    }

    /** One line, of bounded length, with no password a URL in it may carry. */
    static String clean(String text) {
        if (text == null) {
            return "";
        }
        String line = text.strip().lines().findFirst().orElse("");
        line = USER_INFO.matcher(line).replaceAll("$1");
        return line.length() <= MAX_DETAIL ? line : line.substring(0, MAX_DETAIL) + "...";
    }

    /**
     * The error codes by which Redis says it cannot serve right now, or not this client, rather
     * than that the request was wrong.
     */
    private enum Refusal {
        NOAUTH(MISCONFIGURED + "Redis requires a password and none is configured"),
        WRONGPASS(MISCONFIGURED + "Redis rejects the configured user name or password"),
        /** Worded by {@link #meaning}, which names the user and the command. */
        NOPERM(MISCONFIGURED + "the configured Redis user lacks a permission the adapter needs"),
        READONLY("the node is a read-only replica: the configured address names a replica, or a failover is under way"),
        LOADING("Redis is still loading its data into memory"),
        MISCONF("Redis refuses writes because it cannot save to disk"),
        BUSY("Redis is busy running a script that takes too long"),
        MASTERDOWN("the replica has lost its link to the master"),
        CLUSTERDOWN("the cluster is down"),
        TRYAGAIN("the keys' slot is being moved between nodes"),
        NOREPLICAS("too few replicas are connected for Redis to accept writes"),
        OOM("Redis is out of memory"),
        MOVED("the keys' slot has moved to another node"),
        ASK("the keys' slot is moving to another node");

        private final String meaning;

        Refusal(String meaning) {
            this.meaning = meaning;
        }

        static Optional<Refusal> of(ErrorReply reply) {
            String code = reply.code();
            for (Refusal refusal : values()) {
                if (refusal.name().equals(code)) {
                    return Optional.of(refusal);
                }
            }
            return Optional.empty();
        }
    }
}
