package dev.pigeonhole.archfixture.bookrule.book;

/** Stands for the book's algorithm: a lock around every send. */
public final class BookLock {

    public static void send() {
    }
}
