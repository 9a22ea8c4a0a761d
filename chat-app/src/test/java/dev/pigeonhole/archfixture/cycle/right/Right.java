package dev.pigeonhole.archfixture.cycle.right;

import dev.pigeonhole.archfixture.cycle.left.Left;

/** Broken on purpose: the other half. */
public record Right(Left left) {
}
