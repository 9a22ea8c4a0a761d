package dev.pigeonhole.archfixture.adapters.adapter.inmemory;

public class InMemoryThings {
}
