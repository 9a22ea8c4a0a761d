package dev.pigeonhole.adapter.inmemory;

import dev.pigeonhole.domain.model.chat.Chat;
import dev.pigeonhole.domain.model.chat.Message;
import dev.pigeonhole.domain.model.chat.MessageLog;
import dev.pigeonhole.domain.model.chat.Sent;
import dev.pigeonhole.domain.model.live.Channel;

import java.util.ArrayList;
import java.util.List;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * One chat as this store keeps it: the domain's {@link Chat}, which decides everything, the
 * messages it decided to keep, and the lock that makes each operation on it atomic.
 *
 * <p>The lock is a {@link ReentrantReadWriteLock} rather than {@code synchronized} so that a
 * virtual thread waiting for it does not pin its carrier thread on JDK 21. Every method expects
 * the caller to hold it: the read lock to read, the write lock to change.
 */
final class StoredChat implements MessageLog {

    final Chat chat;
    /** Built once: a {@link Channel} validates its name, which a busy chat should not repeat. */
    final Channel channel;
    final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();
    private final NavigableMap<Long, Message> messages = new TreeMap<>();

    StoredChat(Chat chat) {
        this.chat = chat;
        this.channel = Channel.ofChat(chat.id());
    }

    /** Keeps what a send stored (a repeated send stored nothing), and lets go of what the chat dropped. */
    void keep(Sent sent) {
        if (!sent.repeat()) {
            messages.put(sent.message().id(), sent.message());
        }
        forgetDropped();
    }

    /** Lets go of every message below the chat's window: acknowledged by everyone, or past retention. */
    void forgetDropped() {
        messages.headMap(chat.history().firstAvailableId()).clear();
    }

    @Override
    public List<Message> after(long id, int limit) {
        List<Message> page = new ArrayList<>(Math.min(limit, messages.size()));
        for (Message message : messages.tailMap(id, false).values()) {
            if (page.size() == limit) {
                break;
            }
            page.add(message);
        }
        return page;
    }
}
