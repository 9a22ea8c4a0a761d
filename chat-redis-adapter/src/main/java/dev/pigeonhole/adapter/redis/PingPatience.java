package dev.pigeonhole.adapter.redis;

import dev.pigeonhole.domain.model.StoreUnavailableException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.function.BooleanSupplier;
import java.util.function.LongPredicate;

/**
 * A PING asked again until it is answered or the patience runs out, for the clients that
 * reconnect in the background: while one is reconnecting it fails requests at once, and a client
 * that is back within the connect and command timeouts has answered within them. A refusal of the
 * client's credentials or permissions is not asked again.
 */
public final class PingPatience {

    private static final Logger LOG = LoggerFactory.getLogger(PingPatience.class);
    private static final Duration PAUSE = Duration.ofMillis(25);

    private final Duration patience;

    /** Patience for a client with these settings: its connect timeout and its command timeout. */
    public PingPatience(RedisSettings settings) {
        this.patience = settings.connectTimeout().plus(settings.commandTimeout());
    }

    /**
     * True once {@code ping} says the client was answered, which it is given the deadline to wait
     * until (in {@link System#nanoTime()}'s terms); false when the deadline passes first, the
     * driver closes, or the thread is interrupted. A ping that throws is a no, and asked again.
     */
    public boolean answered(String endpoint, BooleanSupplier closed, LongPredicate ping) {
        long deadline = System.nanoTime() + patience.toNanos();
        while (!closed.getAsBoolean()) {
            try {
                if (ping.test(deadline)) {
                    return true;
                }
            } catch (StoreUnavailableException e) {
                if (RedisFailures.isMisconfiguration(e)) {
                    // Refused credentials or permissions: no reconnect mends them, so the caller
                    // hears no at once and can say why, rather than after the whole patience.
                    LOG.debug("PING to {} refused", endpoint, e);
                    return false;
                }
                LOG.debug("PING to {} failed", endpoint, e);
            } catch (RuntimeException e) {
                LOG.debug("PING to {} failed", endpoint, e);
            }
            if (deadline - System.nanoTime() < PAUSE.toNanos()) {
                return false;
            }
            try {
                Thread.sleep(PAUSE);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
        return false;
    }
}
