package dev.pigeonhole.adapter.http;

import com.networknt.schema.Schema;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SchemaRegistryConfig;
import com.networknt.schema.dialect.Dialects;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.JsonNodeFactory;

/**
 * openapi.json read the way a client generator reads it, to hold the server to it: which
 * operations it promises, and whether a real answer keeps the promise. Schemas are checked by a
 * JSON Schema 2020-12 validator in the OpenAPI 3.1 dialect, so a {@code $ref} into
 * {@code components} resolves exactly as it would for any other tool reading the document.
 */
final class OpenApiDocument {

    static final String RESOURCE = "openapi.json";

    /** OpenAPI 3.1 allows these as keys of a path item; anything else there is not an operation. */
    private static final List<String> METHODS = List.of("get", "put", "post", "delete", "options", "head", "patch", "trace");
    private static final Pattern TEMPLATE_PARAMETER = Pattern.compile("\\{([^}/]+)}");
    /** The validator resolves references against a base IRI; this one only names the document, nothing fetches it. */
    private static final String BASE_IRI = "https://pigeonhole.invalid/openapi.json";
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final byte[] bytes;
    private final JsonNode root;
    private final SchemaRegistry schemas;

    private OpenApiDocument(byte[] bytes) {
        this.bytes = bytes;
        this.root = JSON.readTree(bytes);
        String text = new String(bytes, StandardCharsets.UTF_8);
        // Formats are annotations only in 2020-12 unless asked for; a "date-time" that is not one should fail.
        this.schemas = SchemaRegistry.withDialect(Dialects.getOpenApi31(), registry -> registry
                .schemas(Map.of(BASE_IRI, text))
                .schemaRegistryConfig(SchemaRegistryConfig.builder().formatAssertionsEnabled(true).build()));
    }

    /** The resource as it sits on the test classpath, read without going through the server's own code. */
    static OpenApiDocument load() {
        try (InputStream in = OpenApiDocument.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException(RESOURCE + " is not on the classpath next to " + OpenApiDocument.class);
            }
            return new OpenApiDocument(in.readAllBytes());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    byte[] bytes() {
        return bytes.clone();
    }

    JsonNode root() {
        return root;
    }

    /** Every operation as "METHOD /path", the form {@link ChatHttpServer#routes()} uses. */
    Set<String> operations() {
        Set<String> operations = new LinkedHashSet<>();
        for (Map.Entry<String, JsonNode> path : root.path("paths").properties()) {
            for (String method : METHODS) {
                if (path.getValue().has(method)) {
                    operations.add(method.toUpperCase(Locale.ROOT) + " " + path.getKey());
                }
            }
        }
        return operations;
    }

    /** Whether the operation asks for credentials: its own {@code security}, or else the document's. */
    boolean needsToken(String method, String template) {
        JsonNode operation = operation(method, template);
        JsonNode security = operation.has("security") ? operation.get("security") : root.path("security");
        if (security.isEmpty()) {
            return false;
        }
        // An empty requirement object among the alternatives means "or no credentials at all".
        for (JsonNode requirement : security.values()) {
            if (requirement.isEmpty()) {
                return false;
            }
        }
        return true;
    }

    /**
     * What is wrong with the path parameters of every operation: a template name the operation does
     * not declare, a declared path parameter the template lacks, or one not marked required (OpenAPI
     * demands {@code required: true} for every path parameter).
     */
    List<String> pathParameterProblems() {
        List<String> problems = new ArrayList<>();
        for (String route : operations()) {
            String method = route.substring(0, route.indexOf(' '));
            String template = route.substring(route.indexOf(' ') + 1);
            Set<String> inTemplate = templateNames(template);
            Set<String> declared = new LinkedHashSet<>();
            List<JsonNode> parameters = new ArrayList<>();
            // Parameters may sit on the path item, shared by its operations, as well as on the operation.
            root.path("paths").path(template).path("parameters").values().forEach(parameters::add);
            operation(method, template).path("parameters").values().forEach(parameters::add);
            for (JsonNode parameter : parameters) {
                JsonNode resolved = resolve(parameter);
                if (!"path".equals(resolved.path("in").stringValue(""))) {
                    continue;
                }
                String name = resolved.path("name").stringValue("");
                declared.add(name);
                if (!resolved.path("required").booleanValue(false)) {
                    problems.add(route + ": path parameter '" + name + "' is not marked required");
                }
            }
            for (String name : inTemplate) {
                if (!declared.contains(name)) {
                    problems.add(route + ": {" + name + "} is in the path but not among the operation's parameters");
                }
            }
            for (String name : declared) {
                if (!inTemplate.contains(name)) {
                    problems.add(route + ": declares path parameter '" + name + "' that the path does not have");
                }
            }
        }
        return problems;
    }

    /**
     * What is wrong with this answer by the document: a status the operation does not list, a
     * content type it does not list for that status, a body where none is documented, a body off
     * its schema, or a required header missing. Empty when the answer keeps the promise.
     */
    List<String> violations(String method, String template, ApiClient.Response response) {
        String where = method + " " + template + " answered " + response.status();
        String operationPointer = "/paths/" + escape(template) + "/" + method.toLowerCase(Locale.ROOT);
        if (root.at(operationPointer).isMissingNode()) {
            return List.of(where + ": the document has no such operation");
        }
        JsonNode responses = root.at(operationPointer + "/responses");
        String status = Integer.toString(response.status());
        // OpenAPI's order of precedence: the exact code, then its range, then the catch-all.
        String key = firstPresent(responses, status, status.charAt(0) + "XX", "default");
        if (key == null) {
            return List.of(where + ": that status is not documented; it lists " + names(responses));
        }
        String responsePointer = operationPointer + "/responses/" + escape(key);
        JsonNode documented = root.at(responsePointer);
        while (documented.has("$ref")) {
            String ref = documented.get("$ref").stringValue("");
            if (!ref.startsWith("#/")) {
                return List.of(where + ": the response refers outside the document, to '" + ref + "'");
            }
            responsePointer = ref.substring(1);
            documented = root.at(responsePointer);
            if (documented.isMissingNode()) {
                return List.of(where + ": the response refers to '" + ref + "', which is not in the document");
            }
        }

        List<String> violations = new ArrayList<>();
        for (Map.Entry<String, JsonNode> header : documented.path("headers").properties()) {
            if (resolve(header.getValue()).path("required").booleanValue(false) && response.header(header.getKey()).isEmpty()) {
                violations.add(where + ": the required header " + header.getKey() + " is missing");
            }
        }

        JsonNode content = documented.path("content");
        if (content.isEmpty()) {
            if (!response.body().isEmpty()) {
                violations.add(where + ": documented without a body, but it sent " + shorten(response.body()));
            }
            return violations;
        }
        String mediaType = response.contentType().split(";", 2)[0].strip().toLowerCase(Locale.ROOT);
        if (!content.has(mediaType)) {
            violations.add(where + ": content type '" + response.contentType() + "' is not documented; it lists "
                    + names(content));
            return violations;
        }
        String schemaPointer = responsePointer + "/content/" + escape(mediaType) + "/schema";
        if (root.at(schemaPointer).isMissingNode()) {
            return violations;
        }
        JsonNode instance;
        if (mediaType.equals("application/json") || mediaType.endsWith("+json")) {
            try {
                instance = JSON.readTree(response.body());
            } catch (JacksonException e) {
                violations.add(where + ": the body is not JSON: " + shorten(response.body()));
                return violations;
            }
        } else {
            instance = JsonNodeFactory.instance.stringNode(response.body());
        }
        Schema schema = schemas.getSchema(SchemaLocation.of(BASE_IRI + "#" + schemaPointer));
        schema.validate(instance).forEach(error -> violations.add(where + ": " + error + " in " + shorten(response.body())));
        return violations;
    }

    private JsonNode operation(String method, String template) {
        return root.path("paths").path(template).path(method.toLowerCase(Locale.ROOT));
    }

    /** A parameter or header may be a local {@code $ref}; anything unresolvable reads as missing. */
    private JsonNode resolve(JsonNode node) {
        JsonNode current = node;
        while (current.has("$ref") && current.get("$ref").stringValue("").startsWith("#/")) {
            current = root.at(current.get("$ref").stringValue().substring(1));
        }
        return current;
    }

    static Set<String> templateNames(String template) {
        Set<String> names = new LinkedHashSet<>();
        Matcher matcher = TEMPLATE_PARAMETER.matcher(template);
        while (matcher.find()) {
            names.add(matcher.group(1));
        }
        return names;
    }

    /** RFC 6901: a key holding '/' or '~' must be escaped to be one step of a JSON pointer. */
    private static String escape(String key) {
        return key.replace("~", "~0").replace("/", "~1");
    }

    private static String firstPresent(JsonNode object, String... keys) {
        for (String key : keys) {
            if (object.has(key)) {
                return key;
            }
        }
        return null;
    }

    private static String names(JsonNode object) {
        return String.join(", ", object.propertyNames());
    }

    private static String shorten(String body) {
        return body.length() > 300 ? body.substring(0, 300) + "…" : body;
    }
}
