package dev.pigeonhole.adapter.redis.jedis;

import dev.pigeonhole.domain.model.StoreUnavailableException;
import java.io.EOFException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Locale;
import java.util.NoSuchElementException;
import javax.net.ssl.SSLException;
import redis.clients.jedis.exceptions.JedisClusterOperationException;
import redis.clients.jedis.exceptions.JedisConnectionException;
import redis.clients.jedis.exceptions.JedisDataException;
import redis.clients.jedis.exceptions.JedisNoScriptException;
import redis.clients.jedis.exceptions.JedisRedirectionException;

/**
 * Sorts what Jedis throws into the driver contract's two failures: the store could not serve the
 * call ({@link StoreUnavailableException}) or a script failed ({@link IllegalStateException}).
 */
final class JedisFailures {

    /**
     * Error replies that say the server cannot serve right now rather than that the script is
     * wrong: still loading, busy with another script, failing over, refusing writes, out of
     * memory, or not accepting this client.
     */
    private static final List<String> OUTAGE_PREFIXES = List.of(
            "LOADING", "BUSY", "MASTERDOWN", "CLUSTERDOWN", "TRYAGAIN", "READONLY", "MOVED", "ASK",
            "NOREPLICAS", "MISCONF", "OOM", "NOAUTH", "WRONGPASS", "NOPERM");

    private final String endpoint;
    private final long commandTimeoutMillis;

    JedisFailures(String endpoint, long commandTimeoutMillis) {
        this.endpoint = endpoint;
        this.commandTimeoutMillis = commandTimeoutMillis;
    }

    String endpoint() {
        return endpoint;
    }

    static boolean isNoScript(Throwable e) {
        return e instanceof JedisNoScriptException
                || e instanceof JedisDataException && e.getMessage() != null && e.getMessage().startsWith("NOSCRIPT");
    }

    /** True when the server answered with a redirection, so the command did not run. */
    static boolean isRedirection(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof JedisRedirectionException) {
                return true;
            }
            for (Throwable s : t.getSuppressed()) {
                if (s instanceof JedisRedirectionException) {
                    return true;
                }
            }
            if (t.getCause() == t) {
                break;
            }
        }
        return false;
    }

    /** True when the failure concerns the connection rather than what was sent over it. */
    static boolean isConnectionProblem(Throwable e) {
        for (Throwable t = e; t != null && t.getCause() != t; t = t.getCause()) {
            if (t instanceof JedisConnectionException) {
                return true;
            }
        }
        return false;
    }

    /** The failure of a script call, as the exception the driver contract allows to leave. */
    RuntimeException ofScript(String scriptName, RuntimeException e) {
        if (e instanceof JedisDataException data && !(e instanceof JedisRedirectionException) && !isOutageReply(data.getMessage())) {
            return scriptError(scriptName, data.getMessage(), e);
        }
        return unavailable("script " + scriptName, e);
    }

    static IllegalStateException scriptError(String scriptName, String redisMessage, Throwable cause) {
        return new IllegalStateException("Redis script " + scriptName + " failed: " + redisMessage, cause);
    }

    /** The failure of anything else the driver does (publish, subscribe): never a script bug. */
    StoreUnavailableException unavailable(String what, Throwable e) {
        return new StoreUnavailableException("Redis at " + endpoint + " could not serve " + what + ": " + whatHappened(e), e);
    }

    StoreUnavailableException unavailable(String what, String reason, Throwable cause) {
        return new StoreUnavailableException("Redis at " + endpoint + " could not serve " + what + ": " + reason, cause);
    }

    static boolean isOutageReply(String message) {
        if (message == null) {
            return false;
        }
        for (String prefix : OUTAGE_PREFIXES) {
            if (message.startsWith(prefix + " ") || message.equals(prefix)) {
                return true;
            }
        }
        return false;
    }

    /** One line on what went wrong, from the most telling exception in the chain. */
    String whatHappened(Throwable e) {
        String kind = kindOf(e);
        String detail = e.getMessage();
        if (detail == null || detail.isBlank() || kind.contains(detail) || detail.contains(kind)) {
            return kind;
        }
        for (Throwable t = e.getCause(); t != null && t.getCause() != t; t = t.getCause()) {
            if (detail.equals(t.toString()) || detail.equals(t.getMessage())) {
                return kind;
            }
        }
        return kind + " [" + detail + "]";
    }

    private String kindOf(Throwable e) {
        for (Throwable t = e; t != null && t.getCause() != t; t = t.getCause()) {
            if (t instanceof SocketTimeoutException) {
                boolean connecting = t.getMessage() != null && t.getMessage().toLowerCase(Locale.ROOT).contains("connect");
                return connecting ? "connection attempt timed out" : "no answer within " + commandTimeoutMillis + " ms";
            }
            if (t instanceof ConnectException) {
                return "connection refused";
            }
            if (t instanceof UnknownHostException) {
                return "unknown host " + t.getMessage();
            }
            if (t instanceof NoRouteToHostException) {
                return "no route to host";
            }
            if (t instanceof SSLException) {
                return "TLS failed (" + t.getMessage() + ")";
            }
            if (t instanceof NoSuchElementException) {
                return "no pooled connection became free within " + commandTimeoutMillis + " ms";
            }
            if (t instanceof EOFException || t instanceof SocketException) {
                return "connection broken (" + t.getMessage() + ")";
            }
        }
        if (e instanceof JedisClusterOperationException) {
            Throwable cause = e.getCause() != null ? e.getCause() : e.getSuppressed().length > 0 ? e.getSuppressed()[0] : null;
            return "cluster not reachable or not serving" + (cause != null && cause.getMessage() != null ? " (" + cause.getMessage() + ")" : "");
        }
        if (e instanceof JedisConnectionException) {
            return "connection failed";
        }
        if (e instanceof JedisDataException) {
            return "error reply";
        }
        return e.getClass().getSimpleName();
    }
}
