package io.pylon.integration.flow;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The published JSON Schema of flow documents ({@code flow-schema.json} beside this class, served by the Integration
 * pod) and validation against it, with each problem placed by step: {@code steps[1] (shape).http.method}.
 * Immutable and thread-safe (networknt schemas are).
 */
public final class FlowSchema {
    public static final String RESOURCE = "/io/pylon/integration/flow-schema.json";
    private static final Pattern STEP = Pattern.compile("^\\$\\.(steps|onFailure)\\[(\\d+)]");

    private final byte[] text;
    private final JsonSchema schema;

    public FlowSchema(ObjectMapper json) {
        try (InputStream in = FlowSchema.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("missing " + RESOURCE);
            }
            this.text = in.readAllBytes();
            JsonNode node = json.readTree(text);
            this.schema = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012).getSchema(node);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The schema document as published. */
    public byte[] text() {
        return text.clone();
    }

    /** Every way the document breaks the schema, ordered by place; empty when it conforms. */
    public List<FlowProblem> validate(JsonNode document) {
        Set<ValidationMessage> messages = schema.validate(document);
        List<FlowProblem> problems = new ArrayList<>();
        for (ValidationMessage m : messages) {
            String location = m.getInstanceLocation().toString();
            String message = m.getMessage();
            if (message.startsWith(location + ": ")) {
                message = message.substring(location.length() + 2);
            }
            problems.add(new FlowProblem(place(document, location), message));
        }
        problems.sort(Comparator.comparing(FlowProblem::at).thenComparing(FlowProblem::message));
        return problems;
    }

    /** {@code $.steps[1].http.method} as {@code steps[1] (shape).http.method}; {@code $} as {@code document}. */
    static String place(JsonNode document, String location) {
        if (location.equals("$")) {
            return "document";
        }
        Matcher m = STEP.matcher(location);
        String rest = location.startsWith("$.") ? location.substring(2) : location;
        if (!m.find()) {
            return rest;
        }
        JsonNode id = document.path(m.group(1)).path(Integer.parseInt(m.group(2))).path("id");
        if (!id.isTextual()) {
            return rest;
        }
        String head = m.group(1) + "[" + m.group(2) + "]";
        return head + " (" + id.asText() + ")" + rest.substring(head.length());
    }
}
