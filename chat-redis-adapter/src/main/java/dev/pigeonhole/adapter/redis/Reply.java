package dev.pigeonhole.adapter.redis;

import java.util.List;

/**
 * A script's answer: a status word, then values. Every script replies with a table, so this is
 * the one place that knows how a driver's plain Java values are laid out; the scripts' own
 * records ({@link ChatScripts}, {@link MailboxScripts}) read it once into something with names.
 *
 * @param script the script that answered, to name in a complaint
 */
record Reply(String status, List<Object> values, RedisFunction script) {

    static Reply of(Object raw, RedisFunction script) {
        if (raw instanceof List<?> list && !list.isEmpty() && list.getFirst() instanceof String status) {
            @SuppressWarnings("unchecked")
            List<Object> all = (List<Object>) list;
            return new Reply(status, all.subList(1, all.size()), script);
        }
        throw new IllegalStateException(script.name() + " answered " + raw + " where a status table was expected");
    }

    boolean is(String expected) {
        return status.equals(expected);
    }

    long number(int index) {
        return ((Number) values.get(index)).longValue();
    }

    /** A number, or null where the script returned nil. */
    Long optionalNumber(int index) {
        Object value = values.get(index);
        return value == null ? null : Long.valueOf(value.toString());
    }

    String text(int index) {
        return (String) values.get(index);
    }

    @SuppressWarnings("unchecked")
    List<String> texts(int index) {
        return (List<String>) values.get(index);
    }

    /** The answer as a chat script's refusal: its word and what came with it. */
    ChatRefusal refusal() {
        return ChatRefusal.of(status, values, script);
    }

    /** The same word without its first value: what a script put in front of a refusal. */
    Reply withoutFirst() {
        return new Reply(status, values.subList(1, values.size()), script);
    }

    /** The same word without its last value: what a script put after a refusal. */
    Reply withoutLast() {
        return new Reply(status, values.subList(0, values.size() - 1), script);
    }

    /** For an answer no branch expected: the script and Java disagree, which is a bug. */
    IllegalStateException unexpected(RedisFunction script) {
        return new IllegalStateException(script.name() + " answered " + status + " " + values);
    }
}
