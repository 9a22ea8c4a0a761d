package dev.pigeonhole.adapter.redis;

import java.util.List;

/**
 * A script's answer: a status word, then values. Every script replies with a table, so this is
 * the one place that knows how a driver's plain Java values are laid out.
 */
record Reply(String status, List<Object> values) {

    static Reply of(Object raw, LuaScript script) {
        if (raw instanceof List<?> list && !list.isEmpty() && list.getFirst() instanceof String status) {
            @SuppressWarnings("unchecked")
            List<Object> all = (List<Object>) list;
            return new Reply(status, all.subList(1, all.size()));
        }
        throw new IllegalStateException(script.name() + " answered " + raw + " where a status table was expected");
    }

    /** The answer's word as one of the script's answers; a word Java does not know is a bug. */
    <A extends Enum<A>> A word(Class<A> answers, LuaScript script) {
        try {
            return Enum.valueOf(answers, status);
        } catch (IllegalArgumentException unknown) {
            throw unexpected(script);
        }
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

    /** For an answer no branch expected: the script and Java disagree, which is a bug. */
    IllegalStateException unexpected(LuaScript script) {
        return new IllegalStateException(script.name() + " answered " + status + " " + values);
    }
}
