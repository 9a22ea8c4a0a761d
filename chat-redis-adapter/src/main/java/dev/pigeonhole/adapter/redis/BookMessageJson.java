package dev.pigeonhole.adapter.redis;

import dev.pigeonhole.domain.model.UserId;
import dev.pigeonhole.domain.model.chat.Message;
import dev.pigeonhole.domain.model.mailbox.DirectMessage;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.json.JsonFactory;

import java.io.StringWriter;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Instant;
import java.util.function.Consumer;

/**
 * How this adapter keeps a message in Redis: the JSON of Redis in Action 6.5.2, in both key
 * layouts, so a chat written by the book's Python code reads back here and the other way round:
 *
 * <pre>{"id":1,"ts":1700000000.123,"sender":"joe","message":"hi"}</pre>
 *
 * {@code ts} is in seconds, written with exactly three decimals so that milliseconds survive the
 * trip (the domain keeps milliseconds). A mailbox holds the same object, its id the mailbox's.
 * What goes over pub/sub between servers is not this but the live event codec's form.
 *
 * <p>A message's id is only known inside the send (or deliver) script, so Java writes everything
 * after it (the {@link #tailOf tail}) and the script puts {@code {"id":<id>,} in front.
 *
 * <p>Reading is done once per message, and a pending over many chats reads many: what this class
 * wrote is read {@link #asWritten as written}, by where its fields stand, and only the rest (the
 * book's Python puts spaces after colons and writes microseconds; a body with a quote or a line
 * break carries escapes) goes to the JSON parser, whose parser objects cost more than the message.
 */
final class BookMessageJson {

    private static final JsonFactory JSON = new JsonFactory();

    private BookMessageJson() {
    }

    /** The message without its opening {@code {"id":N,}: {@code "ts":…,"sender":…,"message":…}}. */
    static String tailOf(Instant sentAt, UserId sender, String body) {
        String whole = write(json -> writeFields(json, sentAt, sender, body));
        return whole.substring(1);
    }

    static Message message(String json) {
        return read(json, Fields::toMessage);
    }

    static DirectMessage directMessage(String json) {
        return read(json, Fields::toDirectMessage);
    }

    private static void writeFields(JsonGenerator json, Instant sentAt, UserId sender, String body) {
        json.writeStartObject();
        json.writeName("ts");
        json.writeNumber(seconds(sentAt));
        json.writeStringProperty("sender", sender.value());
        json.writeStringProperty("message", body);
        json.writeEndObject();
    }

    /** Seconds with exactly three decimals: what the book writes, without a double's rounding. */
    private static String seconds(Instant at) {
        return BigDecimal.valueOf(at.toEpochMilli(), 3).toPlainString();
    }

    /** The book's Python writes {@code time.time()} with microseconds; the ports keep milliseconds. */
    private static Instant instant(BigDecimal seconds) {
        return Instant.ofEpochMilli(seconds.movePointRight(3).setScale(0, RoundingMode.HALF_UP).longValueExact());
    }

    private static String write(Consumer<JsonGenerator> body) {
        StringWriter out = new StringWriter(96);
        try (JsonGenerator json = JSON.createGenerator(out)) {
            body.accept(json);
        }
        return out.toString();
    }

    private interface Reading<T> {
        T from(Fields fields, String json);
    }

    private static <T> T read(String json, Reading<T> reading) {
        Fields fields = asWritten(json);
        return reading.from(fields != null ? fields : parsed(json), json);
    }

    private static Fields parsed(String json) {
        try (JsonParser parser = JSON.createParser(json)) {
            expect(parser.nextToken() == JsonToken.START_OBJECT, json);
            return readObject(parser, json);
        } catch (JacksonException e) {
            throw new IllegalStateException("Redis holds a message that is not JSON: " + json, e);
        }
    }

    private static final String ID = "{\"id\":";
    private static final String TS = ",\"ts\":";
    private static final String SENDER = ",\"sender\":\"";
    private static final String BODY = "\",\"message\":\"";
    private static final String END = "\"}";

    /**
     * The fields of a message exactly as the scripts and {@link #tailOf} write it,
     * {@code {"id":N,"ts":S.mmm,"sender":"…","message":"…"}}, with no escape in its strings; null
     * for anything else, which the JSON parser then reads. Every check is of the text itself, so
     * a message read here is the one the parser would have read.
     */
    private static Fields asWritten(String json) {
        int idEnd = json.indexOf(',', ID.length());
        if (!json.startsWith(ID) || idEnd < 0 || !json.startsWith(TS, idEnd)) {
            return null;
        }
        int tsStart = idEnd + TS.length();
        int tsEnd = json.indexOf(',', tsStart);
        if (tsEnd < 0 || !json.startsWith(SENDER, tsEnd)) {
            return null;
        }
        int senderStart = tsEnd + SENDER.length();
        int senderEnd = plainStringEnd(json, senderStart);
        if (senderEnd < 0 || !json.startsWith(BODY, senderEnd)) {
            return null;
        }
        int bodyStart = senderEnd + BODY.length();
        int bodyEnd = plainStringEnd(json, bodyStart);
        int point = tsEnd - 4;
        long id = integer(json, ID.length(), idEnd);
        long seconds = integer(json, tsStart, point);
        long millis = digits(json, point + 1, tsEnd);
        if (bodyEnd < 0 || bodyEnd != json.length() - END.length() || !json.startsWith(END, bodyEnd)
                || point <= tsStart || json.charAt(point) != '.' || id < 0 || seconds < 0 || millis < 0) {
            return null;
        }
        Fields fields = new Fields();
        fields.id = id;
        fields.ts = Instant.ofEpochMilli(seconds * 1000 + millis);
        fields.sender = json.substring(senderStart, senderEnd);
        fields.body = json.substring(bodyStart, bodyEnd);
        return fields;
    }

    /** Where the string starting at {@code from} closes, or -1 if it holds an escape or a control character. */
    private static int plainStringEnd(String json, int from) {
        for (int at = from; at < json.length(); at++) {
            char c = json.charAt(at);
            if (c == '"') {
                return at;
            }
            if (c == '\\' || c < 0x20) {
                return -1;
            }
        }
        return -1;
    }

    /** {@link #digits}, refusing a leading zero as JSON does (but for 0 itself). */
    private static long integer(String json, int from, int to) {
        return to - from > 1 && json.charAt(from) == '0' ? -1 : digits(json, from, to);
    }

    /** The number that the digits from {@code from} to {@code to} spell, or -1 if anything else is there. */
    private static long digits(String json, int from, int to) {
        if (from >= to || to - from > 15) {
            return -1;
        }
        long value = 0;
        for (int at = from; at < to; at++) {
            char c = json.charAt(at);
            if (c < '0' || c > '9') {
                return -1;
            }
            value = value * 10 + (c - '0');
        }
        return value;
    }

    /** Reads the fields of the object the parser is at; unknown fields (a newer writer's) are skipped. */
    private static Fields readObject(JsonParser parser, String json) {
        Fields fields = new Fields();
        for (String name = parser.nextName(); name != null; name = parser.nextName()) {
            parser.nextToken();
            switch (name) {
                case "id" -> fields.id = parser.getLongValue();
                case "ts" -> fields.ts = instant(parser.getDecimalValue());
                case "sender" -> fields.sender = parser.getString();
                case "message" -> fields.body = parser.getString();
                default -> parser.skipChildren();
            }
        }
        return fields;
    }

    private static void expect(boolean condition, String json) {
        if (!condition) {
            throw new IllegalStateException("Redis holds a message that is not a JSON object: " + json);
        }
    }

    private static final class Fields {
        Long id;
        Instant ts;
        String sender;
        String body;

        Message toMessage(String json) {
            expect(id != null && ts != null && sender != null && body != null, json);
            return new Message(id, ts, UserId.of(sender), body);
        }

        DirectMessage toDirectMessage(String json) {
            expect(id != null && ts != null && sender != null && body != null, json);
            return new DirectMessage(id, ts, UserId.of(sender), body);
        }
    }
}
