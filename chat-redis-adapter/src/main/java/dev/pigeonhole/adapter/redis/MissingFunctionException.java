package dev.pigeonhole.adapter.redis;

/**
 * Redis answered that it knows no function of the name called: the node lost the library (a
 * restart without persistence, a replica promoted before it had it, a node new to the cluster),
 * or holds another version of it. {@link FunctionLibrary#loadingOnMiss} loads the library and
 * calls again once; a second miss is a bug, which is why this is an {@link IllegalStateException}.
 */
public final class MissingFunctionException extends IllegalStateException {

    public MissingFunctionException(String action, Throwable cause) {
        super("Redis knows no " + action, cause);
    }

    /** How Redis words it. */
    static boolean isMissingFunction(String errorReply) {
        return errorReply != null && errorReply.startsWith("ERR Function not found");
    }
}
