package io.pylon.manager.api;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.helidon.http.HeaderNames;
import io.helidon.http.Status;
import io.helidon.webserver.http.ServerRequest;
import io.pylon.core.http.Json;
import org.jspecify.annotations.Nullable;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/** Reads request bodies with a size limit: form bodies (the token and revocation endpoints) and JSON objects. */
public final class RequestBodies {
    /** Largest body any management endpoint accepts; larger ones get 413. */
    public static final int MAX_BODY = 16 * 1024;
    public static final String FORM = "application/x-www-form-urlencoded";
    public static final String JSON = "application/json";

    private RequestBodies() {
    }

    /** The media type without parameters, lower case; empty when there is no Content-Type. */
    public static String mediaType(ServerRequest req) {
        String value = req.headers().first(HeaderNames.CONTENT_TYPE).orElse("");
        int semicolon = value.indexOf(';');
        return (semicolon >= 0 ? value.substring(0, semicolon) : value).strip().toLowerCase(Locale.ROOT);
    }

    public static byte[] read(ServerRequest req) {
        return read(req, MAX_BODY);
    }

    /** The body, at most {@code max} bytes (413 beyond). */
    public static byte[] read(ServerRequest req, int max) {
        return io.pylon.core.http.BoundedBody.read(req, max, RequestBodies::tooLarge);
    }

    /** The 413 answer to a body larger than {@code max} bytes. */
    public static ApiException tooLarge(int max) {
        return new ApiException(Status.REQUEST_ENTITY_TOO_LARGE_413, "invalid_request",
                "The request body exceeds " + max + " bytes.");
    }

    /** Whether the request's media type is a YAML one ({@code application/yaml}, {@code text/yaml}, ...). */
    public static boolean isYaml(String mediaType) {
        return mediaType.equals("application/yaml") || mediaType.equals("application/x-yaml")
                || mediaType.equals("text/yaml") || mediaType.equals("text/x-yaml");
    }

    /**
     * A JSON or YAML document body (by Content-Type), at most {@code max} bytes; 415 for another media type, 400
     * naming the line and column of a syntax error.
     */
    public static JsonNode document(ServerRequest req, int max) {
        String type = mediaType(req);
        boolean yaml = isYaml(type);
        if (!yaml && !JSON.equals(type)) {
            throw new ApiException(Status.UNSUPPORTED_MEDIA_TYPE_415, "invalid_request",
                    "The body must be " + JSON + " or application/yaml.");
        }
        byte[] body = read(req, max);
        try {
            JsonNode node = io.pylon.gateway.model.ProxyParser.readTree(body, !yaml);
            return node == null ? com.fasterxml.jackson.databind.node.MissingNode.getInstance() : node;
        } catch (io.pylon.gateway.model.InvalidProxyException e) {
            throw ApiException.badRequest(e.getMessage());
        }
    }

    /**
     * The fields of an {@code application/x-www-form-urlencoded} body. A field given twice is refused (RFC 6749
     * section 3.2: request parameters must not be included more than once).
     */
    public static Map<String, String> form(ServerRequest req) {
        if (!FORM.equals(mediaType(req))) {
            throw ApiException.badRequest("The body must be " + FORM + " (JSON is not accepted here).");
        }
        String body = new String(read(req), StandardCharsets.UTF_8);
        Map<String, String> fields = new LinkedHashMap<>();
        if (body.isEmpty()) {
            return fields;
        }
        for (String pair : body.split("&")) {
            if (pair.isEmpty()) {
                continue;
            }
            int eq = pair.indexOf('=');
            String name;
            String value;
            try {
                name = URLDecoder.decode(eq >= 0 ? pair.substring(0, eq) : pair, StandardCharsets.UTF_8);
                value = eq >= 0 ? URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8) : "";
            } catch (IllegalArgumentException e) {
                throw ApiException.badRequest("The form body is not valid URL encoding.");
            }
            if (fields.put(name, value) != null) {
                throw ApiException.badRequest("The form field '" + name + "' is given more than once.");
            }
        }
        return fields;
    }

    /** A JSON object body; 415 for another media type, 400 for malformed JSON or another JSON type. */
    public static ObjectNode jsonObject(ServerRequest req) {
        String type = mediaType(req);
        if (!JSON.equals(type)) {
            throw new ApiException(Status.UNSUPPORTED_MEDIA_TYPE_415, "invalid_request",
                    "The body must be " + JSON + ".");
        }
        byte[] body = read(req);
        JsonNode node;
        try {
            node = Json.MAPPER.readTree(body);
        } catch (StreamConstraintsException e) {
            // Jackson's limits (nesting depth 1,000, numbers of 1,000 digits) say where they were hit without a location
            throw ApiException.badRequest(String.valueOf(e.getOriginalMessage()).contains("nesting")
                    ? "The body nests JSON more than 1000 levels deep." : "The body holds a JSON value longer than allowed.");
        } catch (JsonProcessingException e) {
            JsonLocation where = e.getLocation();
            throw ApiException.badRequest("The body is not valid JSON" + (where == null ? "."
                    : " (line " + where.getLineNr() + ", column " + where.getColumnNr() + ")."));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        if (!(node instanceof ObjectNode object)) {
            throw ApiException.badRequest("The body must be a JSON object.");
        }
        return object;
    }

    /** A text field of a JSON object: null when absent or null, 400 when of another type. */
    public static @Nullable String text(ObjectNode body, String field) {
        JsonNode node = body.get(field);
        if (node == null || node.isNull()) {
            return null;
        }
        if (!node.isTextual()) {
            throw ApiException.badRequest("The field '" + field + "' must be a string.");
        }
        return node.asText();
    }

    public static String requiredText(ObjectNode body, String field) {
        String value = text(body, field);
        if (value == null || value.isBlank()) {
            throw ApiException.badRequest("Missing field '" + field + "'.");
        }
        return value;
    }

    /** Refuses fields the endpoint does not know, so that a typo is not silently ignored. */
    public static void onlyFields(ObjectNode body, java.util.Set<String> allowed) {
        body.fieldNames().forEachRemaining(name -> {
            if (!allowed.contains(name)) {
                throw ApiException.badRequest("Unknown field '" + name + "'; allowed: " + String.join(", ", allowed) + ".");
            }
        });
    }
}
