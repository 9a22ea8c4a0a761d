package dev.pigeonhole.adapter.redis;

import java.util.List;

/**
 * A function's answer: a status word, then values. Every function replies with a table, so this is
 * the one place that knows how a driver's plain Java values are laid out; the functions' own
 * records ({@link ChatScripts}, {@link MailboxScripts}) read it once into something with names.
 *
 * @param function the function that answered, to name in a complaint
 */
record Reply(String status, List<Object> values, RedisFunction function) {

    static Reply of(Object raw, RedisFunction function) {
        if (raw instanceof List<?> list && !list.isEmpty() && list.getFirst() instanceof String status) {
            @SuppressWarnings("unchecked")
            List<Object> all = (List<Object>) list;
            return new Reply(status, all.subList(1, all.size()), function);
        }
        throw new IllegalStateException(function.name() + " answered " + raw + " where a status table was expected");
    }

    boolean is(String expected) {
        return status.equals(expected);
    }

    long number(int index) {
        return ((Number) values.get(index)).longValue();
    }

    /** A number, or null where the function returned nil. */
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

    /** The answer as a chat function's refusal: its word and what came with it. */
    ChatRefusal refusal() {
        return ChatRefusal.of(status, values, function);
    }

    /** The same word without its first value: what a function put in front of a refusal. */
    Reply withoutFirst() {
        return new Reply(status, values.subList(1, values.size()), function);
    }

    /** The same word without its last value: what a function put after a refusal. */
    Reply withoutLast() {
        return new Reply(status, values.subList(0, values.size() - 1), function);
    }

    /** For an answer no branch expected: the function and Java disagree, which is a bug. */
    IllegalStateException unexpected(RedisFunction function) {
        return new IllegalStateException(function.name() + " answered " + status + " " + values);
    }
}
