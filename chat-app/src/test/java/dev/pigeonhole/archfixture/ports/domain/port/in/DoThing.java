package dev.pigeonhole.archfixture.ports.domain.port.in;

/** Broken on purpose: a use case that is a class. */
public class DoThing {
}
