package dev.pigeonhole.tck;

import java.util.ArrayList;
import java.util.List;

/**
 * The stores one test opened, closed together when it ends. Every store is closed even when one
 * fails to, so a broken fixture cannot leak the others' connections into the next test.
 */
final class OpenStores {

    private final List<StoreFixture> open = new ArrayList<>();

    StoreFixture track(StoreFixture store) {
        open.add(store);
        return store;
    }

    void closeAll() {
        try {
            closeEach(open);
        } finally {
            open.clear();
        }
    }

    /** Closes every one, even when one fails to, and throws the first failure with the others' suppressed. */
    static void closeEach(List<? extends AutoCloseable> resources) {
        RuntimeException failure = null;
        for (AutoCloseable resource : resources) {
            try {
                resource.close();
            } catch (Exception e) {
                RuntimeException unchecked = e instanceof RuntimeException runtime ? runtime
                        : new IllegalStateException("could not close " + resource, e);
                if (failure == null) {
                    failure = unchecked;
                } else {
                    failure.addSuppressed(unchecked);
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
    }
}
