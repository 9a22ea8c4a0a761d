package dev.pigeonhole.archfixture.tck.adapter.inmemory;

public class InMemoryThings {
}
