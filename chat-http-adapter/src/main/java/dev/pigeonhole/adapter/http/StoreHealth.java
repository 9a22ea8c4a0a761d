package dev.pigeonhole.adapter.http;

/** Whether the store behind the domain answers; the composition root knows how to ask it. */
@FunctionalInterface
public interface StoreHealth {

    Status check();

    /**
     * @param store  which backend, e.g. {@code memory} or {@code redis (lettuce)}
     * @param detail for an operator: where it is, or what failed; never secrets
     */
    record Status(boolean up, String store, String detail) {
    }
}
