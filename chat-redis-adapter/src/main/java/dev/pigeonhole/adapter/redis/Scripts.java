package dev.pigeonhole.adapter.redis;

/**
 * Every Lua script of the adapter but the chat aggregate's own (those are {@link ChatScripts}),
 * loaded once. Each lives in {@code lua/<name>.lua} beside this class, where its header says which
 * keys and arguments it takes.
 */
final class Scripts {

    static final LuaScript CHAT_EXISTS = LuaScript.load("chat_exists");
    static final LuaScript COUNTER_NEXT = LuaScript.load("counter_next");
    static final LuaScript INDEX_ADD = LuaScript.load("index_add");
    static final LuaScript INDEX_REMOVE = LuaScript.load("index_remove");
    static final LuaScript INDEX_LIST = LuaScript.load("index_list");
    static final LuaScript QUOTA_TAKE = LuaScript.load("quota_take", "bucket");
    static final LuaScript PRESENCE_TOUCH = LuaScript.load("presence_touch");
    static final LuaScript PRESENCE_SINCE = LuaScript.load("presence_since");
    static final LuaScript PRESENCE_COUNT = LuaScript.load("presence_count");
    static final LuaScript PRESENCE_AMONG = LuaScript.load("presence_among");
    static final LuaScript PRESENCE_PRUNE = LuaScript.load("presence_prune");
    static final LuaScript LOCK_ACQUIRE = LuaScript.load("lock_acquire");
    static final LuaScript LOCK_RELEASE = LuaScript.load("lock_release");
    static final LuaScript CONSENT_READ = LuaScript.load("consent_read");
    static final LuaScript CONSENT_REPLACE = LuaScript.load("consent_replace");

    private Scripts() {
    }
}
