package dev.pigeonhole.testsupport;

import java.util.Objects;
import java.util.function.Supplier;

/**
 * Something a fixture may need and is costly to open (a second connection, a second pool),
 * opened the first time it is asked for and closed with the fixture only if it was.
 */
public final class OnFirstUse<T extends AutoCloseable> implements Supplier<T>, AutoCloseable {

    private final Supplier<T> open;
    private T opened;

    public OnFirstUse(Supplier<T> open) {
        this.open = Objects.requireNonNull(open, "open");
    }

    @Override
    public synchronized T get() {
        if (opened == null) {
            opened = open.get();
        }
        return opened;
    }

    @Override
    public synchronized void close() {
        if (opened == null) {
            return;
        }
        try {
            opened.close();
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException("could not close " + opened, e);
        } finally {
            opened = null;
        }
    }
}
