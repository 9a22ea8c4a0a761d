package dev.pigeonhole.archfixture.construction.adapter.inmemory;

public class InMemoryThings {
}
