package dev.pigeonhole.archfixture.chapters.domain.model.live;

/** An event of the live chapter. */
public record Announcement(String what) {
}
