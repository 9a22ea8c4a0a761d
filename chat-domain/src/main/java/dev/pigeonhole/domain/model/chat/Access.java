package dev.pigeonhole.domain.model.chat;

/**
 * Who may come into a chat. A private chat is entered only when a member adds you; an open one
 * is the book's group chat, which anyone who knows its id may also join by themselves.
 */
public enum Access {
    PRIVATE,
    OPEN
}
