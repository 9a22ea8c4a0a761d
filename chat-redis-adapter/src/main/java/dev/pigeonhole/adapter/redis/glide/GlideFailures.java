package dev.pigeonhole.adapter.redis.glide;

import dev.pigeonhole.adapter.redis.FutureFailures;
import dev.pigeonhole.adapter.redis.RedisFailure;
import dev.pigeonhole.adapter.redis.RedisFailure.ErrorReply;
import dev.pigeonhole.adapter.redis.RedisFailure.NoAnswer;
import dev.pigeonhole.adapter.redis.RedisFailure.Trouble;
import dev.pigeonhole.adapter.redis.RedisFailures;
import dev.pigeonhole.domain.model.StoreUnavailableException;
import glide.api.models.exceptions.ClosingException;
import glide.api.models.exceptions.ConnectionException;
import glide.api.models.exceptions.GlideException;
import glide.api.models.exceptions.RequestException;
import glide.api.models.exceptions.TimeoutException;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Waits for GLIDE's futures, reads what they fail with as a {@link RedisFailure}, and leaves the
 * verdict to the shared {@link RedisFailures}, so that GLIDE fails as Jedis and Lettuce do and no
 * GLIDE exception reaches a caller (it stays attached as the cause, for the logs).
 *
 * <p>GLIDE's core rewrites Redis's error replies: the codes it knows by name come as
 * {@code An error was signalled by the server: - ReadOnly: You can't write...}, the others as
 * {@code NOREPLICAS: Not enough...}. Both are read back into Redis's own words
 * ({@code READONLY You can't write...}), since the shared rules go by Redis's error code.
 */
final class GlideFailures extends FutureFailures {

    private static final Pattern SIGNALLED = Pattern.compile("An error was signalled by the server: - (\\w+): (.*)", Pattern.DOTALL);
    private static final Pattern CODED = Pattern.compile("(?:^|- |: |`)([A-Z][A-Z0-9_-]*): ([^`]*)", Pattern.DOTALL);
    /** The names GLIDE's core gives the error codes it knows, and Redis's code for each. */
    private static final Map<String, String> KINDS = Map.ofEntries(
            Map.entry("ResponseError", "ERR"), Map.entry("ReadOnly", "READONLY"), Map.entry("PermissionDenied", "NOPERM"),
            Map.entry("BusyLoadingError", "LOADING"), Map.entry("MasterDown", "MASTERDOWN"),
            Map.entry("ClusterDown", "CLUSTERDOWN"), Map.entry("TryAgain", "TRYAGAIN"), Map.entry("Moved", "MOVED"),
            Map.entry("Ask", "ASK"), Map.entry("ExecAbortError", "EXECABORT"), Map.entry("NoScriptError", "NOSCRIPT"),
            Map.entry("CrossSlot", "CROSSSLOT"), Map.entry("NotBusy", "NOTBUSY"));

    /** How GLIDE words the failure of a request whose connection could not be made (single node, cluster). */
    private static final Pattern CONNECT_FAILED = Pattern.compile("connect failed|Failed to create initial connections");

    GlideFailures(RedisFailures rules, Duration patience) {
        super(rules, patience);
    }

    /** A function call's failure: the function's own error reply, or trouble on the way to it. */
    @Override
    protected RuntimeException ofCall(Throwable failure, String action) {
        if (failure instanceof StoreUnavailableException translated) {
            return translated;
        }
        return rules.ofCall(action, read(failure), failure);
    }

    @Override
    protected StoreUnavailableException translate(Throwable failure, String action) {
        if (failure instanceof StoreUnavailableException translated) {
            return translated;
        }
        return rules.unavailable(action, read(failure), failure);
    }

    /** An error reply GLIDE hands back inside a reply (a batch's, or a nested Lua error). */
    static boolean isErrorReply(Object element) {
        return element instanceof RequestException;
    }

    /** Redis's error reply if the failure carries one, else what kept an answer from coming. */
    static RedisFailure read(Throwable failure) {
        for (Throwable t : RedisFailure.chain(failure)) {
            if (t instanceof TimeoutException) {
                return new NoAnswer(Trouble.TIMED_OUT, null);
            }
            if (t instanceof RequestException && t.getMessage() != null && CONNECT_FAILED.matcher(t.getMessage()).find()) {
                // A lazy client's connection attempt, failed: Redis's refusal if it answered one.
                return codedReply(t.getMessage()).<RedisFailure>map(ErrorReply::new)
                        .orElseGet(() -> new NoAnswer(Trouble.UNREACHABLE, t.getMessage()));
            }
            if (t instanceof RequestException && t.getMessage() != null) {
                return new ErrorReply(redisText(t.getMessage()));
            }
            if (t instanceof ClosingException || t instanceof ConnectionException) {
                // Refused at creation names a code when Redis answered (WRONGPASS while connecting).
                Optional<String> reply = codedReply(t.getMessage());
                if (reply.isPresent()) {
                    return new ErrorReply(reply.get());
                }
                return new NoAnswer(trouble(t), t.getMessage());
            }
        }
        return RedisFailure.fromJdk(failure).orElseGet(() -> new NoAnswer(Trouble.UNREACHABLE,
                failure instanceof GlideException ? failure.getMessage() : failure.getClass().getSimpleName()));
    }

    private static Trouble trouble(Throwable t) {
        String message = String.valueOf(t.getMessage());
        if (message.startsWith("Client closed")) {
            return Trouble.CLOSED;
        }
        // GLIDE keeps trying until the connect timeout and then says "refused" whatever the
        // cause, so a client that could not be created is only known to be unreachable.
        if (message.startsWith("Failed to create client")) {
            return Trouble.UNREACHABLE;
        }
        return Trouble.BROKEN;
    }

    /** Redis's words for an error as GLIDE words it. */
    static String redisText(String message) {
        return codedReply(message).orElse(message.strip());
    }

    private static Optional<String> codedReply(String message) {
        if (message == null) {
            return Optional.empty();
        }
        Matcher signalled = SIGNALLED.matcher(message);
        if (signalled.find()) {
            String kind = signalled.group(1);
            return Optional.of(KINDS.getOrDefault(kind, kind) + " " + signalled.group(2).strip());
        }
        Matcher coded = CODED.matcher(message);
        if (coded.find()) {
            return Optional.of(coded.group(1) + " " + coded.group(2).strip());
        }
        return Optional.empty();
    }
}
