package dev.pigeonhole.adapter.postgres;

import dev.pigeonhole.domain.model.ChatId;
import dev.pigeonhole.domain.model.UserId;
import dev.pigeonhole.domain.model.chat.Message;
import dev.pigeonhole.domain.model.live.Channel;
import dev.pigeonhole.domain.model.live.LiveEvent;
import dev.pigeonhole.domain.model.mailbox.DirectMessage;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.json.JsonFactory;

import java.io.StringWriter;
import java.time.Instant;
import java.util.function.Consumer;

/**
 * The payload of one notification: the domain channel's name and either the event itself or,
 * when the event would not fit in a notification, where a listener reads it.
 *
 * <pre>
 * {"channel":"chat:lunch","event":{"type":"message","chat":"lunch","message":{"id":7,"at":1767225600123,"sender":"alice","body":"hi"}}}
 * {"channel":"chat:lunch","stored":{"type":"message","chat":"lunch","id":7}}
 * {"channel":"user:bob","stored":{"type":"mailbox","user":"bob","id":3}}
 * </pre>
 *
 * Times are epoch milliseconds, as the tables keep them. Only this adapter reads what it writes.
 */
final class LiveEventJson {

    private static final JsonFactory JSON = new JsonFactory();

    private LiveEventJson() {
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
            writeEvent(json, event);
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
            Fields event = null;
            Fields stored = null;
            for (String name = parser.nextName(); name != null; name = parser.nextName()) {
                parser.nextToken();
                switch (name) {
                    case "channel" -> channel = new Channel(parser.getString());
                    case "event" -> event = Fields.read(parser);
                    case "stored" -> stored = Fields.read(parser);
                    default -> parser.skipChildren();
                }
            }
            expect(channel != null && (event != null) != (stored != null), text);
            return event != null ? new Carried(channel, event.toEvent(text)) : stored.toStored(channel, text);
        } catch (IllegalArgumentException e) {
            throw e;
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("not a live event payload: " + text, e);
        }
    }

    private static void writeEvent(JsonGenerator json, LiveEvent event) {
        json.writeStartObject();
        switch (event) {
            case LiveEvent.MessagePosted posted -> {
                json.writeStringProperty("type", "message");
                json.writeStringProperty("chat", posted.chat().value());
                Message m = posted.message();
                writeMessage(json, m.id(), m.sentAt(), m.sender(), m.body());
            }
            case LiveEvent.DirectMessageDelivered delivered -> {
                json.writeStringProperty("type", "mailbox");
                json.writeStringProperty("user", delivered.owner().value());
                DirectMessage m = delivered.message();
                writeMessage(json, m.id(), m.sentAt(), m.sender(), m.body());
            }
            case LiveEvent.MembershipChanged changed -> {
                json.writeStringProperty("type", "membership");
                json.writeStringProperty("user", changed.user().value());
                json.writeStringProperty("chat", changed.chat().value());
                json.writeBooleanProperty("member", changed.member());
            }
            case LiveEvent.PresenceChanged changed -> {
                json.writeStringProperty("type", "presence");
                json.writeStringProperty("user", changed.user().value());
                json.writeBooleanProperty("online", changed.online());
                json.writeNumberProperty("at", changed.at().toEpochMilli());
            }
        }
        json.writeEndObject();
    }

    private static void writeMessage(JsonGenerator json, long id, Instant at, UserId sender, String body) {
        json.writeName("message");
        json.writeStartObject();
        json.writeNumberProperty("id", id);
        json.writeNumberProperty("at", at.toEpochMilli());
        json.writeStringProperty("sender", sender.value());
        json.writeStringProperty("body", body);
        json.writeEndObject();
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

    /** The fields of an event, a stored reference or a message, whichever object the parser is at. */
    private static final class Fields {
        String type;
        String chat;
        String user;
        Boolean flag;
        Long id;
        Long at;
        String sender;
        String body;
        Fields message;

        static Fields read(JsonParser parser) {
            Fields fields = new Fields();
            for (String name = parser.nextName(); name != null; name = parser.nextName()) {
                JsonToken value = parser.nextToken();
                switch (name) {
                    case "type" -> fields.type = parser.getString();
                    case "chat" -> fields.chat = parser.getString();
                    case "user" -> fields.user = parser.getString();
                    case "sender" -> fields.sender = parser.getString();
                    case "body" -> fields.body = parser.getString();
                    case "member", "online" -> fields.flag = value == JsonToken.VALUE_TRUE;
                    case "id" -> fields.id = parser.getLongValue();
                    case "at" -> fields.at = parser.getLongValue();
                    case "message" -> fields.message = read(parser);
                    default -> parser.skipChildren();
                }
            }
            return fields;
        }

        LiveEvent toEvent(String text) {
            expect(type != null, text);
            return switch (type) {
                case "message" -> new LiveEvent.MessagePosted(ChatId.of(chat), message.toMessage(text));
                case "mailbox" -> new LiveEvent.DirectMessageDelivered(UserId.of(user), message.toDirectMessage(text));
                case "membership" -> {
                    expect(flag != null, text);
                    yield new LiveEvent.MembershipChanged(UserId.of(user), ChatId.of(chat), flag);
                }
                case "presence" -> {
                    expect(flag != null && at != null, text);
                    yield new LiveEvent.PresenceChanged(UserId.of(user), flag, Instant.ofEpochMilli(at));
                }
                default -> throw new IllegalArgumentException("not a live event payload: " + text);
            };
        }

        Stored toStored(Channel channel, String text) {
            expect(type != null && id != null, text);
            return switch (type) {
                case "message" -> new Stored(channel, ChatId.of(chat), null, id);
                case "mailbox" -> new Stored(channel, null, UserId.of(user), id);
                default -> throw new IllegalArgumentException("not a live event payload: " + text);
            };
        }

        Message toMessage(String text) {
            expect(message == null && id != null && at != null && sender != null && body != null, text);
            return new Message(id, Instant.ofEpochMilli(at), UserId.of(sender), body);
        }

        DirectMessage toDirectMessage(String text) {
            expect(message == null && id != null && at != null && sender != null && body != null, text);
            return new DirectMessage(id, Instant.ofEpochMilli(at), UserId.of(sender), body);
        }
    }
}
