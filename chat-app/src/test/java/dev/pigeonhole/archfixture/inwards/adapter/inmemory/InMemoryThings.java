package dev.pigeonhole.archfixture.inwards.adapter.inmemory;

import dev.pigeonhole.archfixture.inwards.domain.port.out.Things;

public class InMemoryThings implements Things {
}
