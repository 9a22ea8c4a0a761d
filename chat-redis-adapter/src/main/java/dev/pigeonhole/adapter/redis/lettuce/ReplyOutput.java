package dev.pigeonhole.adapter.redis.lettuce;

import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.output.CommandOutput;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/**
 * Builds a function's reply in the shapes the driver contract promises: {@code Long}, {@code String},
 * {@code List<Object>} (nested to any depth) and {@code null}.
 *
 * <p>Lettuce's own script outputs do not fit: MULTI answers a list even when the function returned a
 * scalar, and OBJECT does the same for a top-level integer, so {@code 5} and {@code {5}} would look
 * alike. Counting elements here keeps a scalar a scalar and an empty array an empty list.
 *
 * <p>The connections speak RESP3, where Redis converts a function's Lua {@code false} to a boolean
 * and a {@code {double=...}} or {@code {map=...}} table to a double or a map. Each RESP3 type is
 * mapped to what the same function answers over RESP2, so the protocol never shows in the result.
 */
final class ReplyOutput extends CommandOutput<String, String, Object> {

    private static final class OpenArray {
        final List<Object> items;
        int missing;

        OpenArray(List<Object> items, int missing) {
            this.items = items;
            this.missing = missing;
        }
    }

    private final Deque<OpenArray> open = new ArrayDeque<>();
    /** Where a bulk string from a direct buffer is copied to before it becomes a String; grows as needed. */
    private byte[] scratch = new byte[0];

    ReplyOutput() {
        super(StringCodec.UTF8, null);
    }

    @Override
    public void set(ByteBuffer bytes) {
        add(bytes == null ? null : text(bytes));
    }

    @Override
    public void setSingle(ByteBuffer bytes) {
        set(bytes);
    }

    @Override
    public void setBigNumber(ByteBuffer bytes) {
        set(bytes);
    }

    @Override
    public void set(long integer) {
        add(integer);
    }

    /** Over RESP2 a double is a bulk string of its decimal text. */
    @Override
    public void set(double number) {
        add(Double.toString(number));
    }

    /** Over RESP2 a Lua true is the integer 1 and a Lua false is nil. */
    @Override
    public void set(boolean value) {
        add(value ? Long.valueOf(1) : null);
    }

    @Override
    public void multiArray(int count) {
        openArray(count);
    }

    @Override
    public void multiSet(int count) {
        openArray(count);
    }

    /** A map arrives as its count of pairs; over RESP2 it is the flat list key, value, key, value. */
    @Override
    public void multiMap(int count) {
        openArray(count < 0 ? count : count * 2);
    }

    private void openArray(int elements) {
        if (elements < 0) {
            // RESP2's null array
            add(null);
            return;
        }
        List<Object> items = new ArrayList<>(elements);
        add(items);
        if (elements > 0) {
            open.push(new OpenArray(items, elements));
        }
    }

    /**
     * The bulk string as UTF-8 text, as the codec would decode it, without the buffer wrappers the
     * codec makes for every value: a reply of a thousand values is a thousand of them.
     */
    private String text(ByteBuffer bytes) {
        int length = bytes.remaining();
        if (bytes.hasArray()) {
            return new String(bytes.array(), bytes.arrayOffset() + bytes.position(), length, StandardCharsets.UTF_8);
        }
        if (scratch.length < length) {
            scratch = new byte[Math.max(length, 2 * scratch.length)];
        }
        bytes.get(bytes.position(), scratch, 0, length);
        return new String(scratch, 0, length, StandardCharsets.UTF_8);
    }

    /**
     * Appends to the innermost array still missing elements, or makes the value the whole reply.
     * A nested array counts as one element of its parent the moment it opens, so the parent may be
     * complete before its last child is filled.
     */
    private void add(Object value) {
        OpenArray current = open.peek();
        if (current == null) {
            output = value;
            return;
        }
        current.items.add(value);
        if (--current.missing == 0) {
            open.pop();
        }
    }
}
