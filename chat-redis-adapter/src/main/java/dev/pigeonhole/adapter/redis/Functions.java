package dev.pigeonhole.adapter.redis;

import java.util.List;

/**
 * The adapter's one Redis Functions library, {@code pigeonhole}, and those of its functions that
 * no aggregate's call class declares ({@link ChatScripts}, {@link ChatReads} and
 * {@link MailboxScripts} declare theirs). Its files live in {@code lua/} beside this class; each
 * registers its functions at its end, with the keys and arguments each takes.
 */
public final class Functions {

    /**
     * Raise it with every change to the library's text: a server that finds a lower version on a
     * node replaces it, and one that finds a higher version refuses to run.
     * {@code FunctionLibraryTest} holds the digest of the text of this version, so a change
     * without it fails the build.
     */
    static final int VERSION = 3;

    static final FunctionLibrary LIBRARY = FunctionLibrary.assemble("pigeonhole", VERSION,
            List.of("common", "bucket"),
            List.of(List.of("chat", "chat_messages", "chat_operations", "chat_functions", "book"), List.of("mailbox"), List.of("index"),
                    List.of("presence"), List.of("lock"), List.of("consent"), List.of("quota")));

    static final RedisFunction CHAT_EXISTS = reading("chat_exists");
    static final RedisFunction COUNTER_NEXT = writing("counter_next");
    static final RedisFunction INDEX_ADD = writing("index_add");
    static final RedisFunction INDEX_REMOVE = writing("index_remove");
    static final RedisFunction INDEX_LIST = reading("index_list");
    static final RedisFunction QUOTA_TAKE = writing("quota_take");
    static final RedisFunction PRESENCE_TOUCH = writing("presence_touch");
    static final RedisFunction PRESENCE_SINCE = reading("presence_since");
    static final RedisFunction PRESENCE_COUNT = reading("presence_count");
    static final RedisFunction PRESENCE_AMONG = reading("presence_among");
    static final RedisFunction PRESENCE_PRUNE = writing("presence_prune");
    static final RedisFunction LOCK_ACQUIRE = writing("lock_acquire");
    static final RedisFunction LOCK_RELEASE = writing("lock_release");
    static final RedisFunction CONSENT_READ = reading("consent_read");
    static final RedisFunction CONSENT_REPLACE = writing("consent_replace");

    private Functions() {
    }

    /** The library, for whoever calls its functions without the adapter: the raw-client benchmarks. */
    public static FunctionLibrary library() {
        return LIBRARY;
    }

    /** The name FCALL takes for a function the library registers as {@code function}. */
    public static String nameOf(String function) {
        return function + "_v" + VERSION;
    }

    /**
     * Makes sure every primary holds this version of the library before the server calls
     * anything: {@link FunctionLibrary#install}.
     */
    public static void install(RedisDriver driver) {
        LIBRARY.install(driver);
    }

    /** A function of the library that may write, by the name it registers: common.lua's register() adds the version. */
    static RedisFunction writing(String name) {
        return LIBRARY.writing(nameOf(name));
    }

    /** A function of the library registered {@code no-writes}. */
    static RedisFunction reading(String name) {
        return LIBRARY.reading(nameOf(name));
    }
}
