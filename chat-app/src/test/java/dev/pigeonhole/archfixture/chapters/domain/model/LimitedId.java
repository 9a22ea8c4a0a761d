package dev.pigeonhole.archfixture.chapters.domain.model;

import dev.pigeonhole.archfixture.chapters.domain.model.limits.Quota;

/** Broken on purpose: an id every chapter shares depends on one chapter. */
public record LimitedId(String value, Quota quota) {
}
