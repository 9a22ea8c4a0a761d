package dev.pigeonhole.archfixture.cycle.left;

import dev.pigeonhole.archfixture.cycle.right.Right;

/** Broken on purpose: half of a package cycle. */
public record Left(Right right) {
}
