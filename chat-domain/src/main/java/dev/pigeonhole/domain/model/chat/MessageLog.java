package dev.pigeonhole.domain.model.chat;

import java.util.List;

/**
 * Where a store keeps one chat's messages. A {@link Chat} decides who may read what; the log only
 * hands over the messages it holds, so a store may keep them wherever suits it (a sorted map, a
 * table) and still answer a read exactly as every other store does.
 */
@FunctionalInterface
public interface MessageLog {

    /** Up to {@code limit} of the messages held with ids above {@code id}, oldest first. */
    List<Message> after(long id, int limit);
}
