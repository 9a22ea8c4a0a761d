package dev.pigeonhole.codec;

import dev.pigeonhole.domain.model.ChatId;
import dev.pigeonhole.domain.model.UserId;
import dev.pigeonhole.domain.model.chat.Message;
import dev.pigeonhole.domain.model.consent.Invitation;
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
 * The one form a {@link LiveEvent} takes between servers, whatever carries it (Redis pub/sub,
 * PostgreSQL NOTIFY): a JSON object whose {@code type} names the event.
 *
 * <pre>
 * {"type":"message","chat":"lunch","message":{"id":7,"at":1767225600123,"sender":"alice","body":"hi"}}
 * {"type":"mailbox","user":"bob","message":{"id":3,"at":1767225600123,"sender":"alice","body":"psst"}}
 * {"type":"membership","user":"carol","chat":"lunch","member":true}
 * {"type":"presence","user":"alice","online":true,"at":1767225600123}
 * </pre>
 *
 * Times are epoch milliseconds, exactly what the domain keeps. Unknown fields are skipped, so a
 * newer server may add some. This is not what clients see (the HTTP adapter has its own bodies)
 * nor how a store keeps a message (the Redis adapter keeps the book's JSON): it is the servers'
 * own wire, and only servers read it.
 */
public final class LiveEventCodec {

    private static final JsonFactory JSON = new JsonFactory();
    /** Written where the id goes in an {@link Unnumbered} event, then cut out: no string can hold it unescaped. */
    private static final long NO_ID_YET = Long.MIN_VALUE;
    private static final String ID_MARK = "\"message\":{\"id\":" + NO_ID_YET;

    private LiveEventCodec() {
    }

    public static String encode(LiveEvent event) {
        return written(json -> write(json, event));
    }

    /**
     * @throws IllegalArgumentException if the text is not an event this codec writes
     */
    public static LiveEvent decode(String json) {
        try (JsonParser parser = JSON.createParser(json)) {
            expect(parser.nextToken() == JsonToken.START_OBJECT, json);
            return read(parser, json);
        } catch (IllegalArgumentException e) {
            throw e;
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("not a live event: " + json, e);
        }
    }

    /** The event as one value of a larger document the caller is writing (a notification's envelope). */
    public static void write(JsonGenerator json, LiveEvent event) {
        switch (event) {
            case LiveEvent.MessagePosted posted -> writeMessageEvent(json, "message", "chat", posted.chat().value(),
                    posted.message().id(), posted.message().sentAt(), posted.message().sender(), posted.message().body());
            case LiveEvent.DirectMessageDelivered delivered -> writeMessageEvent(json, "mailbox", "user",
                    delivered.owner().value(), delivered.message().id(), delivered.message().sentAt(),
                    delivered.message().sender(), delivered.message().body());
            case LiveEvent.MembershipChanged changed -> {
                json.writeStartObject();
                json.writeStringProperty("type", "membership");
                json.writeStringProperty("user", changed.user().value());
                json.writeStringProperty("chat", changed.chat().value());
                json.writeBooleanProperty("member", changed.member());
                json.writeEndObject();
            }
            case LiveEvent.Invited invited -> {
                json.writeStartObject();
                json.writeStringProperty("type", "invitation");
                json.writeStringProperty("user", invited.invitee().value());
                json.writeStringProperty("chat", invited.invitation().chat().value());
                json.writeStringProperty("inviter", invited.invitation().inviter().value());
                json.writeNumberProperty("joinPoint", invited.invitation().joinPoint());
                json.writeNumberProperty("members", invited.invitation().members());
                json.writeNumberProperty("at", invited.invitation().at().toEpochMilli());
                json.writeEndObject();
            }
            case LiveEvent.PresenceChanged changed -> {
                json.writeStartObject();
                json.writeStringProperty("type", "presence");
                json.writeStringProperty("user", changed.user().value());
                json.writeBooleanProperty("online", changed.online());
                json.writeNumberProperty("at", changed.at().toEpochMilli());
                json.writeEndObject();
            }
        }
    }

    /**
     * The event the parser has just opened (it stands on its {@code START_OBJECT}), read to its end:
     * one value of a larger document the caller is reading.
     *
     * @param source the whole text, for the refusal's message
     * @throws IllegalArgumentException if it is not an event this codec writes; a text that is not
     *                                  JSON at all fails as Jackson's parser fails
     */
    public static LiveEvent read(JsonParser parser, String source) {
        Fields event = Fields.read(parser);
        expect(event.type != null, source);
        return switch (event.type) {
            case "message" -> {
                expect(event.chat != null && event.message != null, source);
                yield new LiveEvent.MessagePosted(ChatId.of(event.chat), event.message.toMessage(source));
            }
            case "mailbox" -> {
                expect(event.user != null && event.message != null, source);
                yield new LiveEvent.DirectMessageDelivered(UserId.of(event.user), event.message.toDirectMessage(source));
            }
            case "membership" -> {
                expect(event.user != null && event.chat != null && event.flag != null, source);
                yield new LiveEvent.MembershipChanged(UserId.of(event.user), ChatId.of(event.chat), event.flag);
            }
            case "invitation" -> {
                expect(event.user != null && event.chat != null && event.inviter != null && event.joinPoint != null
                        && event.members != null && event.at != null, source);
                yield new LiveEvent.Invited(UserId.of(event.user), new Invitation(ChatId.of(event.chat),
                        UserId.of(event.inviter), event.joinPoint, Math.toIntExact(event.members),
                        Instant.ofEpochMilli(event.at)));
            }
            case "presence" -> {
                expect(event.user != null && event.flag != null && event.at != null, source);
                yield new LiveEvent.PresenceChanged(UserId.of(event.user), event.flag, Instant.ofEpochMilli(event.at));
            }
            default -> throw new IllegalArgumentException("not a live event: " + source);
        };
    }

    /**
     * A message event for a store that hands out the id inside its own atomic step (a Redis
     * script): everything but the id, which the store puts between the two halves.
     */
    public static Unnumbered messagePosted(ChatId chat, Instant at, UserId sender, String body) {
        return Unnumbered.of(written(json -> writeMessageEvent(json, "message", "chat", chat.value(), NO_ID_YET, at,
                sender, body)));
    }

    /** A mailbox's delivery event, for a store that hands out the id inside its own atomic step. */
    public static Unnumbered directMessageDelivered(UserId owner, Instant at, UserId sender, String body) {
        return Unnumbered.of(written(json -> writeMessageEvent(json, "mailbox", "user", owner.value(), NO_ID_YET, at,
                sender, body)));
    }

    /**
     * An event whose message id is not known yet: {@code beforeId + id + afterId} is the event as
     * {@link #encode} writes it once the message has its id.
     */
    public record Unnumbered(String beforeId, String afterId) {

        private static Unnumbered of(String withMark) {
            int mark = withMark.indexOf(ID_MARK);
            int id = mark + ID_MARK.length() - Long.toString(NO_ID_YET).length();
            return new Unnumbered(withMark.substring(0, id), withMark.substring(mark + ID_MARK.length()));
        }

        public String withId(long id) {
            return beforeId + id + afterId;
        }
    }

    /** A message's event: its type, where the message went ({@code "chat"} or {@code "user"}), and the message. */
    private static void writeMessageEvent(JsonGenerator json, String type, String whereName, String where, long id,
                                          Instant at, UserId sender, String body) {
        json.writeStartObject();
        json.writeStringProperty("type", type);
        json.writeStringProperty(whereName, where);
        writeMessage(json, id, at, sender, body);
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

    private static String written(Consumer<JsonGenerator> body) {
        StringWriter out = new StringWriter(128);
        try (JsonGenerator json = JSON.createGenerator(out)) {
            body.accept(json);
        }
        return out.toString();
    }

    private static void expect(boolean condition, String source) {
        if (!condition) {
            throw new IllegalArgumentException("not a live event: " + source);
        }
    }

    /** The fields of an event or of its message, whichever object the parser is in. */
    private static final class Fields {
        String type;
        String chat;
        String user;
        Boolean flag;
        Long id;
        Long at;
        String sender;
        String body;
        String inviter;
        Long joinPoint;
        Long members;
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
                    case "inviter" -> fields.inviter = parser.getString();
                    case "joinPoint" -> fields.joinPoint = parser.getLongValue();
                    case "members" -> fields.members = parser.getLongValue();
                    case "message" -> {
                        if (value == JsonToken.START_OBJECT) {
                            fields.message = read(parser);
                        } else {
                            parser.skipChildren();
                        }
                    }
                    default -> parser.skipChildren();
                }
            }
            return fields;
        }

        Message toMessage(String source) {
            expect(id != null && at != null && sender != null && body != null, source);
            return new Message(id, Instant.ofEpochMilli(at), UserId.of(sender), body);
        }

        DirectMessage toDirectMessage(String source) {
            expect(id != null && at != null && sender != null && body != null, source);
            return new DirectMessage(id, Instant.ofEpochMilli(at), UserId.of(sender), body);
        }
    }
}
