package dev.pigeonhole.adapter.redis;

import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.json.JsonFactory;

import java.util.LinkedHashMap;
import java.util.Map;

/** A flat JSON object as a map, read the way a client that knows nothing of the adapter would. */
final class JsonObjects {

    private static final JsonFactory JSON = new JsonFactory();

    private JsonObjects() {
    }

    static Map<String, Object> parse(String json) {
        Map<String, Object> fields = new LinkedHashMap<>();
        try (JsonParser parser = JSON.createParser(json)) {
            if (parser.nextToken() != JsonToken.START_OBJECT) {
                throw new IllegalArgumentException("not a JSON object: " + json);
            }
            for (String name = parser.nextName(); name != null; name = parser.nextName()) {
                JsonToken token = parser.nextToken();
                fields.put(name, switch (token) {
                    case VALUE_NUMBER_INT -> parser.getLongValue();
                    case VALUE_NUMBER_FLOAT -> parser.getDecimalValue();
                    case VALUE_STRING -> parser.getString();
                    case VALUE_TRUE, VALUE_FALSE -> token == JsonToken.VALUE_TRUE;
                    default -> throw new IllegalArgumentException("not flat: " + json);
                });
            }
        }
        return fields;
    }
}
