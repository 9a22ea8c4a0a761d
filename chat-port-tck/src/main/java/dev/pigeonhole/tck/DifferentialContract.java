package dev.pigeonhole.tck;

import dev.pigeonhole.domain.model.limits.Limits;
import net.jqwik.api.lifecycle.AfterProperty;
import net.jqwik.api.lifecycle.BeforeProperty;

/**
 * What the differential contracts share: one store, opened for a whole run of a property under
 * the limits the contract chose (small ones, so that chats and mailboxes fill up and empty), and
 * closed after it. Each try names what it touches with a prefix of its own, so tries share
 * nothing but the store.
 */
public abstract class DifferentialContract {

    private final Limits limits;
    private StoreFixture store;

    DifferentialContract(Limits limits) {
        this.limits = limits;
    }

    /** A fresh store, isolated from every other store alive, with the given limits. */
    protected abstract StoreFixture newStore(Limits limits);

    @BeforeProperty
    public void openStore() {
        store = newStore(limits);
    }

    @AfterProperty
    public void closeStore() {
        if (store != null) {
            store.close();
        }
    }

    /** The store the run compares with the aggregates. */
    StoreFixture store() {
        return store;
    }
}
