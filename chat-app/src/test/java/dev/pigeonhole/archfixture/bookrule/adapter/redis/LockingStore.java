package dev.pigeonhole.archfixture.bookrule.adapter.redis;

import dev.pigeonhole.archfixture.bookrule.book.BookLock;

/** Broken on purpose: a store that sends the book's way. */
public final class LockingStore {

    void send() {
        BookLock.send();
    }
}
