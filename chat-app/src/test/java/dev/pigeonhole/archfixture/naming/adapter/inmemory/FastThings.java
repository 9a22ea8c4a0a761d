package dev.pigeonhole.archfixture.naming.adapter.inmemory;

/** Broken on purpose: does not say which technology it is. */
public class FastThings {
}
