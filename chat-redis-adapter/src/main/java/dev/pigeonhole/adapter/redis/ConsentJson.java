package dev.pigeonhole.adapter.redis;

import dev.pigeonhole.domain.model.ChatId;
import dev.pigeonhole.domain.model.UserId;
import dev.pigeonhole.domain.model.consent.AddPolicy;
import dev.pigeonhole.domain.model.consent.ConsentSnapshot;
import dev.pigeonhole.domain.model.consent.Invitation;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.json.JsonFactory;

import java.io.StringWriter;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * How a user's consent is kept in Redis, beside its version ({@link RedisConsents}):
 *
 * <pre>{"policy":"anyone","blocked":["mallory"],
 *  "invitations":[{"chat":"42","inviter":"joe","joinPoint":7,"members":3,"at":1700000000123}]}</pre>
 *
 * {@code policy} is absent while the user keeps the server's default, so changing the default
 * reaches everyone who never chose; times are epoch milliseconds, which is all the domain keeps.
 * The owner is not written: the key names it. Lists keep the snapshot's order.
 */
final class ConsentJson {

    private static final JsonFactory JSON = new JsonFactory();

    private ConsentJson() {
    }

    static String write(ConsentSnapshot consent) {
        StringWriter out = new StringWriter(128);
        try (JsonGenerator json = JSON.createGenerator(out)) {
            json.writeStartObject();
            if (consent.chosen().isPresent()) {
                json.writeStringProperty("policy", consent.chosen().get().label());
            }
            json.writeArrayPropertyStart("blocked");
            for (UserId blocked : consent.blocked()) {
                json.writeString(blocked.value());
            }
            json.writeEndArray();
            json.writeArrayPropertyStart("invitations");
            for (Invitation invitation : consent.invitations()) {
                json.writeStartObject();
                json.writeStringProperty("chat", invitation.chat().value());
                json.writeStringProperty("inviter", invitation.inviter().value());
                json.writeNumberProperty("joinPoint", invitation.joinPoint());
                json.writeNumberProperty("members", invitation.members());
                json.writeNumberProperty("at", invitation.at().toEpochMilli());
                json.writeEndObject();
            }
            json.writeEndArray();
            json.writeEndObject();
        }
        return out.toString();
    }

    static ConsentSnapshot read(UserId owner, String text) {
        try (JsonParser json = JSON.createParser(text)) {
            expect(json.nextToken() == JsonToken.START_OBJECT, text);
            Optional<AddPolicy> policy = Optional.empty();
            List<UserId> blocked = new ArrayList<>();
            List<Invitation> invitations = new ArrayList<>();
            for (String name = json.nextName(); name != null; name = json.nextName()) {
                JsonToken value = json.nextToken();
                switch (name) {
                    case "policy" -> policy = Optional.of(AddPolicy.parse(json.getString()));
                    case "blocked" -> {
                        expect(value == JsonToken.START_ARRAY, text);
                        while (json.nextToken() != JsonToken.END_ARRAY) {
                            blocked.add(UserId.of(json.getString()));
                        }
                    }
                    case "invitations" -> {
                        expect(value == JsonToken.START_ARRAY, text);
                        while (json.nextToken() != JsonToken.END_ARRAY) {
                            invitations.add(invitation(json, text));
                        }
                    }
                    // A newer writer's field: skipped, so servers of two versions can share a Redis.
                    default -> json.skipChildren();
                }
            }
            return new ConsentSnapshot(owner, policy, blocked, invitations);
        } catch (JacksonException e) {
            throw new IllegalStateException("Redis holds a consent that is not JSON: " + text, e);
        }
    }

    private static Invitation invitation(JsonParser json, String text) {
        expect(json.currentToken() == JsonToken.START_OBJECT, text);
        String chat = null;
        String inviter = null;
        Long joinPoint = null;
        Integer members = null;
        Long at = null;
        for (String name = json.nextName(); name != null; name = json.nextName()) {
            json.nextToken();
            switch (name) {
                case "chat" -> chat = json.getString();
                case "inviter" -> inviter = json.getString();
                case "joinPoint" -> joinPoint = json.getLongValue();
                case "members" -> members = json.getIntValue();
                case "at" -> at = json.getLongValue();
                default -> json.skipChildren();
            }
        }
        expect(chat != null && inviter != null && joinPoint != null && members != null && at != null, text);
        return new Invitation(ChatId.of(chat), UserId.of(inviter), joinPoint, members, Instant.ofEpochMilli(at));
    }

    private static void expect(boolean condition, String text) {
        if (!condition) {
            throw new IllegalStateException("Redis holds a consent this server cannot read: " + text);
        }
    }
}
