package dev.pigeonhole.archfixture.ports.domain.port.out;

/** Broken on purpose: a driven port that is a class. */
public class ThingStore {
}
