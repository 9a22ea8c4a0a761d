package dev.pigeonhole.adapter.redis;

import dev.pigeonhole.domain.model.ChatId;
import dev.pigeonhole.domain.model.DomainException;
import dev.pigeonhole.domain.model.LockName;
import dev.pigeonhole.domain.model.UserId;
import dev.pigeonhole.domain.model.limits.RateLimits;
import dev.pigeonhole.domain.model.live.Channel;
import dev.pigeonhole.domain.model.live.ChannelPattern;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Where each piece of state lives in Redis, and what the live channels are called. Two layouts
 * share one algorithm:
 *
 * <ul>
 *   <li>{@link #tagged(String) tagged}, the default: every key of a chat carries the chat's hash
 *       tag ({@code chat:{42}:msgs}), so a script that touches one chat touches one cluster slot;
 *   <li>{@link #book(String) book}: the keys of Redis in Action 6.5.2 ({@code chat:42},
 *       {@code msgs:42}, {@code seen:joe}), so the book's own code and this adapter can share
 *       data. A single node only: its keys carry no hash tags.
 * </ul>
 *
 * Both take a prefix that goes in front of every key and channel, to keep tenants (and tests)
 * apart on one Redis. Identifiers are already restricted to {@code [A-Za-z0-9._-]}, so nothing a
 * user types can forge a separator or a hash tag.
 */
public sealed interface KeyLayout permits KeyLayout.Tagged, KeyLayout.Book {

    Pattern PREFIX = Pattern.compile("[A-Za-z0-9._:-]{0,64}");

    static KeyLayout tagged(String prefix) {
        return new Tagged(checked(prefix));
    }

    static KeyLayout book(String prefix) {
        return new Book(checked(prefix));
    }

    String prefix();

    /** The counter that numbers new chats. */
    default String chatIdCounter() {
        return prefix() + "ids:chat:";
    }

    /** The keys of one chat. */
    ChatKeys chat(ChatId chat);

    /**
     * The chat's members key alone ({@link ChatKeys#members}): where the chat lives, for a caller
     * that needs nothing else of it, such as grouping chats by the node that holds them.
     */
    String chatMembers(ChatId chat);

    /** The user's chats: a sorted set of chat id → cursor, the index {@code pending} starts from. */
    String chatsOf(UserId user);

    /** The user's mailbox and its id counter, with the user's hash tag where the layout has them. */
    MailboxKeys mailbox(UserId user);

    /** One user's bucket for one kind of write ({@link dev.pigeonhole.domain.port.out.Quotas}). */
    String quota(UserId user, RateLimits.Write write);

    /**
     * The user's consent ({@link dev.pigeonhole.domain.port.out.Consents}): a hash of its
     * {@code version} and its {@code consent} as JSON, with the user's hash tag where the layout
     * has them.
     */
    String consent(UserId user);

    default String presence() {
        return prefix() + "presence";
    }

    LockKeys lock(LockName name);

    /** True if every key of one chat (and of one lock) shares a cluster slot. */
    boolean clusterSafe();

    /**
     * True for the book's own layout, which a book client shares: the user's index
     * ({@code seen:<user>}) then holds the live cursor, which the book's
     * {@code fetch_pending_messages} reads, so send and acknowledge keep it in the chat's own
     * script (which only a single node allows); a send waits out the book's
     * {@code lock:chat:<chat>}; and chat ids count up in {@code ids:chat:}. The tagged layout keeps
     * cursors in the chat alone.
     */
    boolean isBookLayout();

    /** The Redis channel that carries a domain channel. */
    String channel(Channel channel);

    /** The Redis channel of a chat's events; every send names it, so it skips building a {@link Channel}. */
    default String chatChannel(ChatId chat) {
        return channel(Channel.ofChat(chat));
    }

    /** The Redis pattern that matches the Redis channels of the domain channels {@code pattern} matches. */
    String pattern(ChannelPattern pattern);

    /** The domain channel a Redis channel carries, or empty for a channel of someone else's. */
    Optional<Channel> channelNamed(String redisChannel);

    /**
     * @param members      sorted set of member → cursor (the highest id it acknowledged)
     * @param messageIds   the message id counter
     * @param messages     sorted set of message JSON → id
     * @param sentUnderKey messages sent under an idempotency key, by "sender key"
     * @param keyWindows   when each of those keys is forgotten, as epoch millis
     * @param joinPoints   sorted set of member → the last id when it came in
     * @param openToAll    exists only while the chat is open to all: anyone may join it
     * @param generation   the membership generation, which grows with every open, join and leave, so
     *                     a user's index (another slot) can tell a late update from a newer one
     * @param sendLock     the book's send lock, which a send must respect in that layout; empty in
     *                     the tagged layout, where sends take no lock
     */
    record ChatKeys(String members, String messageIds, String messages, String sentUnderKey, String keyWindows,
                    String joinPoints, String openToAll, String sendBuckets, String generation,
                    Optional<String> sendLock) {

        /** How many keys {@link #all} holds: chat.lua's CHAT_KEYS, where a script about several chats counts them. */
        public static final int COUNT = 9;

        /** Every key the chat owns, state first: what every chat script takes and the last leave deletes. */
        public List<String> all() {
            List<String> all = new ArrayList<>(COUNT);
            addTo(all);
            return List.copyOf(all);
        }

        /**
         * Appends {@link #all} to {@code names}, in its order: a script about many chats takes each
         * one's keys in a row, and this lays them out without a list for every chat.
         */
        public void addTo(List<String> names) {
            names.add(members);
            names.add(messageIds);
            names.add(messages);
            names.add(sentUnderKey);
            names.add(keyWindows);
            names.add(joinPoints);
            names.add(openToAll);
            names.add(sendBuckets);
            names.add(generation);
        }
    }

    /**
     * @param messages  a list of message JSON, oldest first
     * @param ids       the counter of ids the mailbox handed out; it outlives an emptied list
     * @param strangers the ids held that strangers sent, a sorted set of id → id, so acknowledging
     *                  drops them by score as the list drops its head
     */
    record MailboxKeys(String messages, String ids, String strangers) {

        public List<String> all() {
            return List.of(messages, ids, strangers);
        }
    }

    /**
     * @param lease  holds the current lease's owner token, with the lease's expiry
     * @param fence  the counter fencing tokens come from; it outlives every lease
     */
    record LockKeys(String lease, String fence) {
    }

    /** The cluster-safe default layout: {@code chat:{<chat>}:members}, {@code user:{<user>}:chats}. */
    record Tagged(String prefix) implements KeyLayout {

        private static final String CHAT_CHANNEL = "chat:";
        private static final String USER_CHANNEL = "user:";

        @Override
        public ChatKeys chat(ChatId chat) {
            String id = chat.value();
            return new ChatKeys(chatMembers(chat), chatKey(id, "ids"), chatKey(id, "msgs"), chatKey(id, "sent"),
                    chatKey(id, "sent-windows"), chatKey(id, "joined"), chatKey(id, "open"), chatKey(id, "buckets"),
                    chatKey(id, "generation"), Optional.empty());
        }

        @Override
        public String chatMembers(ChatId chat) {
            return chatKey(chat.value(), "members");
        }

        /** Each name in one piece: a pending or a batch acknowledge names nine keys of every chat. */
        private String chatKey(String chat, String name) {
            return prefix + "chat:{" + chat + "}:" + name;
        }

        @Override
        public String quota(UserId user, RateLimits.Write write) {
            return prefix + "user:{" + user.value() + "}:quota:" + write.word();
        }

        @Override
        public String chatsOf(UserId user) {
            return prefix + "user:{" + user.value() + "}:chats";
        }

        @Override
        public String consent(UserId user) {
            return prefix + "user:{" + user.value() + "}:consent";
        }

        @Override
        public MailboxKeys mailbox(UserId user) {
            String base = prefix + "user:{" + user.value() + "}:mailbox";
            return new MailboxKeys(base, base + "-ids", base + "-strangers");
        }

        @Override
        public LockKeys lock(LockName name) {
            String lease = prefix + "lock:{" + name.value() + "}";
            return new LockKeys(lease, lease + ":fence");
        }

        @Override
        public boolean clusterSafe() {
            return true;
        }

        @Override
        public boolean isBookLayout() {
            return false;
        }

        /**
         * A chat's channel carries the chat's hash tag, so a send script may SPUBLISH to it on a
         * cluster; a user's carries the user's, so users' channels spread over the cluster's slots
         * as their keys do.
         */
        @Override
        public String channel(Channel channel) {
            return channel.chat().map(this::chatChannel)
                    .or(() -> channel.user().map(user -> prefix + USER_CHANNEL + "{" + user.value() + "}"))
                    .orElse(prefix + channel.name());
        }

        @Override
        public String chatChannel(ChatId chat) {
            return prefix + CHAT_CHANNEL + "{" + chat.value() + "}";
        }

        /** {@code chat:ab*} becomes {@code chat:{ab*}}: braces are plain characters to a Redis glob. */
        @Override
        public String pattern(ChannelPattern pattern) {
            String glob = pattern.glob();
            if (glob.startsWith(CHAT_CHANNEL)) {
                return prefix + CHAT_CHANNEL + "{" + glob.substring(CHAT_CHANNEL.length()) + "}";
            }
            return prefix + glob;
        }

        @Override
        public Optional<Channel> channelNamed(String redisChannel) {
            if (!redisChannel.startsWith(prefix)) {
                return Optional.empty();
            }
            String name = redisChannel.substring(prefix.length());
            for (String tagged : List.of(CHAT_CHANNEL, USER_CHANNEL)) {
                if (name.startsWith(tagged + "{") && name.endsWith("}")) {
                    name = tagged + name.substring(tagged.length() + 1, name.length() - 1);
                }
            }
            return parsed(name);
        }
    }

    /** The keys of Redis in Action 6.5.2, for sharing data with the book's code on a single node. */
    record Book(String prefix) implements KeyLayout {

        @Override
        public ChatKeys chat(ChatId chat) {
            String id = chat.value();
            // The book has no idempotency keys, join points, open chats or generations: the keys
            // this layout adds for them are named in the book's style, and a chat made by the book's
            // own code has none of them (private, every member joined at 0).
            return new ChatKeys(chatMembers(chat), prefix + "ids:" + id, prefix + "msgs:" + id,
                    prefix + "sent:" + id, prefix + "sent-windows:" + id, prefix + "joined:" + id,
                    prefix + "open:" + id, prefix + "buckets:" + id,
                    prefix + "generation:" + id, Optional.of(prefix + "lock:chat:" + id));
        }

        @Override
        public String chatMembers(ChatId chat) {
            return prefix + "chat:" + chat.value();
        }

        @Override
        public String quota(UserId user, RateLimits.Write write) {
            return prefix + "quota:" + write.word() + ":" + user.value();
        }

        @Override
        public String chatsOf(UserId user) {
            return prefix + "seen:" + user.value();
        }

        /** The book has no consent; named as {@code seen:<user>} is. */
        @Override
        public String consent(UserId user) {
            return prefix + "consent:" + user.value();
        }

        /**
         * The book names no key for 6.5.1's mailboxes; {@code msgs:<user>} would collide with chats.
         * The counter is named like the book's {@code ids:chat:}, and cannot meet a chat's
         * {@code ids:<chat>}, since no chat id has a colon; the strangers' ids are named as this
         * layout names what it adds to a chat ({@code sent-windows:<chat>}).
         */
        @Override
        public MailboxKeys mailbox(UserId user) {
            return new MailboxKeys(prefix + "mailbox:" + user.value(), prefix + "ids:mailbox:" + user.value(),
                    prefix + "mailbox-strangers:" + user.value());
        }

        @Override
        public LockKeys lock(LockName name) {
            String lease = prefix + "lock:" + name.value();
            return new LockKeys(lease, lease + ":fence");
        }

        @Override
        public boolean clusterSafe() {
            return false;
        }

        @Override
        public boolean isBookLayout() {
            return true;
        }

        @Override
        public String channel(Channel channel) {
            return prefix + channel.name();
        }

        @Override
        public String pattern(ChannelPattern pattern) {
            return prefix + pattern.glob();
        }

        @Override
        public Optional<Channel> channelNamed(String redisChannel) {
            return redisChannel.startsWith(prefix) ? parsed(redisChannel.substring(prefix.length())) : Optional.empty();
        }
    }

    private static Optional<Channel> parsed(String name) {
        try {
            return Optional.of(new Channel(name));
        } catch (DomainException notOurs) {
            return Optional.empty();
        }
    }

    private static String checked(String prefix) {
        if (prefix == null || !PREFIX.matcher(prefix).matches()) {
            throw new IllegalArgumentException("a key prefix is up to 64 of A-Z a-z 0-9 . _ : -, not '" + prefix + "'");
        }
        return prefix;
    }
}
