package dev.pigeonhole.archfixture.chapters.domain.model.limits;

/** A bound of the limits chapter. */
public record Quota(int most) {
}
