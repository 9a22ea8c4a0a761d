package dev.pigeonhole.archfixture.chapters.domain.model.chat;

import dev.pigeonhole.archfixture.chapters.domain.model.live.Announcement;

/** Broken on purpose: a chat's outcome builds the live event that announces it. */
public record AnnouncingOutcome(String chat) {

    public Announcement announcement() {
        return new Announcement(chat);
    }
}
