package dev.pigeonhole.domain.model.mailbox;

import dev.pigeonhole.domain.model.UserId;

import java.util.List;
import java.util.Objects;

/**
 * Everything a {@link Mailbox} holds, as plain values: what a store that keeps mailboxes in rows
 * reads before an operation ({@link Mailbox#restore}) and writes back after it
 * ({@link Mailbox#snapshot}). The aggregate still decides everything.
 *
 * @param lastId       the last id handed out, 0 before the first delivery
 * @param acknowledged every id up to this one is acknowledged, 0 before the first acknowledgement
 * @param fromStrangers the ids held that strangers sent ({@link Sender#STRANGER}), ascending
 */
public record MailboxSnapshot(UserId owner, long lastId, long acknowledged, List<Long> fromStrangers) {

    public MailboxSnapshot {
        Objects.requireNonNull(owner, "owner");
        if (acknowledged < 0 || acknowledged > lastId) {
            throw new IllegalArgumentException("a mailbox acknowledges within the ids it handed out, 0.." + lastId
                    + ", not " + acknowledged);
        }
        fromStrangers = List.copyOf(fromStrangers);
        for (long id : fromStrangers) {
            if (id <= acknowledged || id > lastId) {
                throw new IllegalArgumentException("a stranger's message is one the mailbox holds, " + (acknowledged + 1)
                        + ".." + lastId + ", not " + id);
            }
        }
    }
}
