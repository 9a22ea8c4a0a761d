package dev.pigeonhole.adapter.http;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import tools.jackson.core.JacksonException;
import tools.jackson.core.exc.StreamConstraintsException;
import tools.jackson.core.exc.StreamReadException;
import tools.jackson.databind.JsonNode;

/**
 * A request body read as a JSON object, field by field, so each mistake gets its own answer:
 * malformed JSON, a missing field, a field of the wrong type, a field this request does not take.
 * Nothing is coerced: {@code "8"} is not a number and {@code 8} is not a string.
 */
final class JsonBody {

    private final JsonNode object;

    private JsonBody(JsonNode object) {
        this.object = object;
    }

    /**
     * @param fields every field this request takes; any other is refused, so a misspelt optional
     *               field fails loudly instead of being ignored
     */
    static JsonBody parse(byte[] body, Set<String> fields) {
        if (body.length == 0) {
            throw Problem.malformedJson("the body is empty; send a JSON object with " + describe(fields));
        }
        JsonNode node;
        try {
            node = Json.readTree(body);
        } catch (StreamReadException e) {
            // A syntax error: Jackson's own words point at the spot, which is what the client needs.
            throw Problem.malformedJson("the body is not valid JSON: " + e.getOriginalMessage());
        } catch (StreamConstraintsException e) {
            // Jackson's words here name its own settings class; the client needs the limit, plainly.
            throw Problem.malformedJson("the body nests too deeply, or holds a number or a text too long, to be read");
        } catch (JacksonException e) {
            // Anything else (a second value after the first) Jackson tells in terms of its own classes.
            throw Problem.malformedJson("the body must be one JSON value, an object with " + describe(fields)
                    + ", and nothing after it");
        }
        if (node == null || !node.isObject()) {
            throw Problem.malformedJson("the body must be a JSON object with " + describe(fields));
        }
        for (String name : node.propertyNames()) {
            if (!fields.contains(name)) {
                throw Problem.unknownField(name, describe(fields));
            }
        }
        return new JsonBody(node);
    }

    /** An empty object for a request that may come without a body. */
    static JsonBody parseOrEmpty(byte[] body, Set<String> fields) {
        return body.length == 0 ? new JsonBody(Json.readTree("{}".getBytes())) : parse(body, fields);
    }

    String requiredString(String field) {
        return optionalString(field).orElseThrow(() -> Problem.missingField(field));
    }

    Optional<String> optionalString(String field) {
        JsonNode value = object.get(field);
        if (value == null || value.isNull()) {
            return Optional.empty();
        }
        if (!value.isString()) {
            throw Problem.wrongType("'" + field + "' must be a string, not " + kind(value));
        }
        return Optional.of(value.stringValue());
    }

    long requiredLong(String field) {
        JsonNode value = object.get(field);
        if (value == null || value.isNull()) {
            throw Problem.missingField(field);
        }
        if (!value.isIntegralNumber() || !value.canConvertToLong()) {
            throw Problem.wrongType("'" + field + "' must be a whole number, not " + kind(value));
        }
        return value.longValue();
    }

    /**
     * An object whose every value is a whole number, by name in the order given. Names are not
     * checked here: each is what the caller turns into a value of its own, with its own checks.
     */
    Map<String, Long> wholeNumbersByName(String field) {
        JsonNode value = object.get(field);
        if (value == null || value.isNull()) {
            throw Problem.missingField(field);
        }
        if (!value.isObject()) {
            throw Problem.wrongType("'" + field + "' must be an object of whole numbers, not " + kind(value));
        }
        Map<String, Long> numbers = new LinkedHashMap<>();
        for (String name : value.propertyNames()) {
            JsonNode number = value.get(name);
            if (!number.isIntegralNumber() || !number.canConvertToLong()) {
                throw Problem.wrongType("'" + field + "' must hold whole numbers; for '" + name + "' it holds "
                        + kind(number));
            }
            numbers.put(name, number.longValue());
        }
        return numbers;
    }

    boolean optionalBoolean(String field, boolean absent) {
        JsonNode value = object.get(field);
        if (value == null || value.isNull()) {
            return absent;
        }
        if (!value.isBoolean()) {
            throw Problem.wrongType("'" + field + "' must be true or false, not " + kind(value));
        }
        return value.booleanValue();
    }

    List<String> stringList(String field) {
        JsonNode value = object.get(field);
        if (value == null || value.isNull()) {
            throw Problem.missingField(field);
        }
        if (!value.isArray()) {
            throw Problem.wrongType("'" + field + "' must be an array of strings, not " + kind(value));
        }
        List<String> strings = new ArrayList<>(value.size());
        for (JsonNode element : value.values()) {
            if (!element.isString()) {
                throw Problem.wrongType("'" + field + "' must be an array of strings; it holds " + kind(element));
            }
            strings.add(element.stringValue());
        }
        return strings;
    }

    private static String kind(JsonNode value) {
        if (value.isString()) {
            return "a string";
        }
        if (value.isNumber()) {
            return "a number";
        }
        if (value.isBoolean()) {
            return "a boolean";
        }
        if (value.isArray()) {
            return "an array";
        }
        if (value.isObject()) {
            return "an object";
        }
        return "null";
    }

    private static String describe(Set<String> fields) {
        return fields.isEmpty() ? "no fields" : "the fields " + String.join(", ", new TreeSet<>(fields));
    }
}
