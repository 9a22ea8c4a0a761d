package dev.pigeonhole.adapter.redis;

import java.io.EOFException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.nio.channels.ClosedChannelException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import javax.net.ssl.SSLException;

/**
 * What went wrong between a driver and Redis, said without either client's types: Redis's own
 * error reply, or trouble getting any answer at all. A driver reads one off its client's exception
 * and hands it to {@link RedisFailures}, which decides what it means for the caller.
 */
public sealed interface RedisFailure {

    /** Redis answered with an error, such as {@code WRONGPASS invalid username-password pair}. */
    record ErrorReply(String text) implements RedisFailure {
        public ErrorReply {
            Objects.requireNonNull(text, "text");
        }

        /** The reply's first word, which Redis uses as the error's code: WRONGPASS, READONLY, ERR. */
        public String code() {
            int space = text.indexOf(' ');
            return space < 0 ? text : text.substring(0, space);
        }
    }

    /**
     * No answer came: the connection could not be made, broke, or stayed silent.
     *
     * @param detail what the client or the JDK added, such as {@code Connection reset}; may be null
     */
    record NoAnswer(Trouble trouble, String detail) implements RedisFailure {
        public NoAnswer {
            Objects.requireNonNull(trouble, "trouble");
        }
    }

    /** The ways of getting no answer that a caller's message tells apart. */
    enum Trouble {
        /** Connected, but the answer did not come within the command timeout. */
        TIMED_OUT,
        /** The connection was not made within the connect timeout. */
        CONNECT_TIMED_OUT,
        /** Nothing listens at the address. */
        REFUSED,
        /** A connection that was up broke. */
        BROKEN,
        UNKNOWN_HOST,
        NO_ROUTE,
        TLS_FAILED,
        /** Every pooled connection stayed busy for the whole command timeout. */
        NO_FREE_CONNECTION,
        INTERRUPTED,
        /** The driver itself was closed. */
        CLOSED,
        /** Not reachable for a reason the client does not say more precisely. */
        UNREACHABLE
    }

    /**
     * Every exception in a failure: the chain of causes, and what each holds as suppressed (a
     * cluster client keeps there what each seed node answered), each once, outermost first.
     */
    static List<Throwable> chain(Throwable failure) {
        List<Throwable> all = new ArrayList<>();
        Set<Throwable> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        collect(failure, all, seen);
        return all;
    }

    private static void collect(Throwable failure, List<Throwable> all, Set<Throwable> seen) {
        for (Throwable t = failure; t != null && seen.add(t); t = t.getCause()) {
            all.add(t);
            for (Throwable suppressed : t.getSuppressed()) {
                collect(suppressed, all, seen);
            }
        }
    }

    /**
     * What the JDK's own exceptions in a failure say, since every client ends in {@code java.net}:
     * the first one that tells a kind of trouble, or empty when none does.
     */
    static Optional<NoAnswer> fromJdk(Throwable failure) {
        for (Throwable t : chain(failure)) {
            Trouble trouble = troubleOf(t);
            if (trouble != null) {
                return Optional.of(new NoAnswer(trouble, saysMore(trouble) ? t.getMessage() : null));
            }
        }
        return Optional.empty();
    }

    /** Whether the exception's own message adds to the trouble's name: which host, what broke. */
    private static boolean saysMore(Trouble trouble) {
        return trouble == Trouble.BROKEN || trouble == Trouble.UNKNOWN_HOST || trouble == Trouble.TLS_FAILED;
    }

    private static Trouble troubleOf(Throwable t) {
        String message = t.getMessage() == null ? "" : t.getMessage().toLowerCase(Locale.ROOT);
        return switch (t) {
            // The JDK says "Connect timed out"; Netty's connect timeout is a ConnectException.
            case SocketTimeoutException e -> message.contains("connect") ? Trouble.CONNECT_TIMED_OUT : Trouble.TIMED_OUT;
            case ConnectException e -> message.contains("timed out") ? Trouble.CONNECT_TIMED_OUT : Trouble.REFUSED;
            case UnknownHostException e -> Trouble.UNKNOWN_HOST;
            case NoRouteToHostException e -> Trouble.NO_ROUTE;
            case SSLException e -> Trouble.TLS_FAILED;
            case EOFException e -> Trouble.BROKEN;
            case SocketException e -> Trouble.BROKEN;
            case ClosedChannelException e -> Trouble.BROKEN;
            case InterruptedException e -> Trouble.INTERRUPTED;
            default -> null;
        };
    }
}
