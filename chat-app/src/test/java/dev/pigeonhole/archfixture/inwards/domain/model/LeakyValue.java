package dev.pigeonhole.archfixture.inwards.domain.model;

import dev.pigeonhole.archfixture.inwards.domain.port.out.Things;

/** Broken on purpose: the model reaches out to a port. */
public record LeakyValue(Things things) {
}
