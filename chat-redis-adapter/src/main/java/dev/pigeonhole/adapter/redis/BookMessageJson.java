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
        try (JsonParser parser = JSON.createParser(json)) {
            expect(parser.nextToken() == JsonToken.START_OBJECT, json);
            return reading.from(readObject(parser, json), json);
        } catch (JacksonException e) {
            throw new IllegalStateException("Redis holds a message that is not JSON: " + json, e);
        }
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
