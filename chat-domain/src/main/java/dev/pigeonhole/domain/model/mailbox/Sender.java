package dev.pigeonhole.domain.model.mailbox;

/**
 * Who a delivery comes from, as the mailbox's owner knows it: someone sharing an accepted chat
 * with it, or a stranger, whose share of the mailbox is bounded ({@link Mailbox#strangersShare}).
 */
public enum Sender {
    CO_MEMBER,
    STRANGER
}
