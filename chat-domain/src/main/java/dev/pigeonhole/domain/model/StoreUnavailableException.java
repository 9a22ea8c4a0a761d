package dev.pigeonhole.domain.model;

/**
 * The store could not be reached or did not answer in time. A request that timed out may still
 * have taken effect, so callers retry only what is safe to repeat. Adapters wrap their client's
 * errors in this, so no client type escapes them.
 */
public final class StoreUnavailableException extends DomainException {

    public StoreUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
