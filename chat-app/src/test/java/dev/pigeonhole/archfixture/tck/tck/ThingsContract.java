package dev.pigeonhole.archfixture.tck.tck;

import dev.pigeonhole.archfixture.tck.adapter.inmemory.InMemoryThings;

/** Broken on purpose: a contract that knows one backend. */
public abstract class ThingsContract {

    protected abstract InMemoryThings things();
}
