package dev.pigeonhole.archfixture.book.adapter.redis;

import dev.pigeonhole.archfixture.book.book.BookLock;

/** Broken on purpose: a store that sends the book's way. */
public final class LockingStore {

    void send() {
        BookLock.send();
    }
}
