package dev.pigeonhole.archfixture.threads.domain.service;

/** Broken on purpose: a service that starts a thread of its own instead of being handed one. */
public final class BusyService {

    public void later(Runnable work) {
        Thread.ofVirtual().start(work);
    }
}
