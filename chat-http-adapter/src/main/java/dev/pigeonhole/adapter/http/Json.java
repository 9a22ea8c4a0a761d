package dev.pigeonhole.adapter.http;

import tools.jackson.core.StreamReadFeature;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** The one JSON mapper of the edge: strict when reading, plain records when writing. */
final class Json {

    private static final JsonMapper MAPPER = JsonMapper.builder()
            // {"message":"a","message":"b"} is ambiguous; refuse it rather than keep one silently.
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();

    private Json() {
    }

    static byte[] write(Object value) {
        return MAPPER.writeValueAsBytes(value);
    }

    static JsonNode readTree(byte[] body) {
        return MAPPER.readTree(body);
    }
}
