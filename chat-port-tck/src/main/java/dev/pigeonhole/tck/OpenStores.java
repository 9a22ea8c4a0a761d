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
        RuntimeException failure = null;
        for (StoreFixture store : open) {
            try {
                store.close();
            } catch (RuntimeException e) {
                if (failure == null) {
                    failure = e;
                } else {
                    failure.addSuppressed(e);
                }
            }
        }
        open.clear();
        if (failure != null) {
            throw failure;
        }
    }
}
