package dev.pigeonhole.archfixture.construction.domain.service;

import dev.pigeonhole.archfixture.construction.adapter.inmemory.InMemoryThings;

/** Broken on purpose: a service picks its own backend. */
public class SelfWiringService {

    final Object things = new InMemoryThings();
}
