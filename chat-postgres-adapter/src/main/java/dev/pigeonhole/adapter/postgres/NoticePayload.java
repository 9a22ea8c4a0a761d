package dev.pigeonhole.adapter.postgres;

import dev.pigeonhole.codec.LiveEventCodec;
import dev.pigeonhole.domain.model.ChatId;
import dev.pigeonhole.domain.model.UserId;
import dev.pigeonhole.domain.model.live.Channel;
import dev.pigeonhole.domain.model.live.LiveEvent;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.json.JsonFactory;

import java.io.StringWriter;
import java.util.function.Consumer;

/**
 * The payload of one notification: the domain channel's name and either the event itself, in the
 * live event codec's form, or, when the event would not fit in a notification, where a listener
 * reads it.
 *
 * <pre>
 * {"channel":"chat:lunch","event":{"type":"message","chat":"lunch","message":{"id":7,"at":1767225600123,"sender":"alice","body":"hi"}}}
 * {"channel":"chat:lunch","stored":{"type":"message","chat":"lunch","id":7}}
 * {"channel":"user:bob","stored":{"type":"mailbox","user":"bob","id":3}}
 * </pre>
 *
 * The envelope is this adapter's own: only it reads what it writes.
 */
final class NoticePayload {

    private static final JsonFactory JSON = new JsonFactory();

    private NoticePayload() {
    }

    /** What a notification carries: the channel, and the event or where it is stored. */
    sealed interface Payload {
        Channel channel();
    }

    record Carried(Channel channel, LiveEvent event) implements Payload {
    }

    /** A message too long to carry, stored in a chat ({@code owner} empty) or in a mailbox ({@code chat} empty). */
    record Stored(Channel channel, ChatId chat, UserId owner, long id) implements Payload {
    }

    static String carried(Channel channel, LiveEvent event) {
        return write(json -> {
            json.writeStartObject();
            json.writeStringProperty("channel", channel.name());
            json.writeName("event");
            LiveEventCodec.write(json, event);
            json.writeEndObject();
        });
    }

    /**
     * Where a message event's message is stored.
     *
     * @throws IllegalArgumentException for an event that is not a message's, which always fits
     */
    static String stored(Channel channel, LiveEvent event) {
        return write(json -> {
            json.writeStartObject();
            json.writeStringProperty("channel", channel.name());
            json.writeName("stored");
            json.writeStartObject();
            switch (event) {
                case LiveEvent.MessagePosted posted -> {
                    json.writeStringProperty("type", "message");
                    json.writeStringProperty("chat", posted.chat().value());
                    json.writeNumberProperty("id", posted.message().id());
                }
                case LiveEvent.DirectMessageDelivered delivered -> {
                    json.writeStringProperty("type", "mailbox");
                    json.writeStringProperty("user", delivered.owner().value());
                    json.writeNumberProperty("id", delivered.message().id());
                }
                default -> throw new IllegalArgumentException("only a message is stored elsewhere, not " + event);
            }
            json.writeEndObject();
            json.writeEndObject();
        });
    }

    /** @throws IllegalArgumentException if the text is not a payload this adapter writes */
    static Payload payload(String text) {
        try (JsonParser parser = JSON.createParser(text)) {
            expect(parser.nextToken() == JsonToken.START_OBJECT, text);
            Channel channel = null;
            LiveEvent event = null;
            Where stored = null;
            for (String name = parser.nextName(); name != null; name = parser.nextName()) {
                JsonToken value = parser.nextToken();
                switch (name) {
                    case "channel" -> channel = new Channel(parser.getString());
                    case "event" -> {
                        expect(value == JsonToken.START_OBJECT, text);
                        event = LiveEventCodec.read(parser, text);
                    }
                    case "stored" -> {
                        expect(value == JsonToken.START_OBJECT, text);
                        stored = storedIn(parser, text);
                    }
                    default -> parser.skipChildren();
                }
            }
            expect(channel != null && (event != null) != (stored != null), text);
            if (event != null) {
                return new Carried(channel, event);
            }
            return new Stored(channel, stored.chat(), stored.owner(), stored.id());
        } catch (IllegalArgumentException e) {
            throw e;
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("not a live event payload: " + text, e);
        }
    }

    /** Where a message is stored, before the envelope says on which channel it was announced. */
    private record Where(ChatId chat, UserId owner, long id) {
    }

    /** Where a message is stored, read from the object the parser is in. */
    private static Where storedIn(JsonParser parser, String text) {
        String type = null;
        String chat = null;
        String user = null;
        Long id = null;
        for (String name = parser.nextName(); name != null; name = parser.nextName()) {
            parser.nextToken();
            switch (name) {
                case "type" -> type = parser.getString();
                case "chat" -> chat = parser.getString();
                case "user" -> user = parser.getString();
                case "id" -> id = parser.getLongValue();
                default -> parser.skipChildren();
            }
        }
        expect(type != null && id != null, text);
        return switch (type) {
            case "message" -> {
                expect(chat != null, text);
                yield new Where(ChatId.of(chat), null, id);
            }
            case "mailbox" -> {
                expect(user != null, text);
                yield new Where(null, UserId.of(user), id);
            }
            default -> throw new IllegalArgumentException("not a live event payload: " + text);
        };
    }

    private static String write(Consumer<JsonGenerator> body) {
        StringWriter out = new StringWriter(128);
        try (JsonGenerator json = JSON.createGenerator(out)) {
            body.accept(json);
        }
        return out.toString();
    }

    private static void expect(boolean condition, String text) {
        if (!condition) {
            throw new IllegalArgumentException("not a live event payload: " + text);
        }
    }
}
