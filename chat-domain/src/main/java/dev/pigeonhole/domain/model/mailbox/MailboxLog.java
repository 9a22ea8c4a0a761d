package dev.pigeonhole.domain.model.mailbox;

import java.util.List;

/**
 * Where a store keeps one mailbox's messages. A {@link Mailbox} decides which of them are still
 * held; the log only hands over what it keeps, so a store may keep them wherever suits it (a
 * queue, a table) and still answer a read exactly as every other store does.
 */
@FunctionalInterface
public interface MailboxLog {

    /** Up to {@code limit} of the messages kept with ids above {@code id}, oldest first. */
    List<DirectMessage> after(long id, int limit);
}
