package io.pylon.distribution.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;

import java.util.function.Supplier;

/** Prints a command's answer in the chosen format: the JSON as the Manager gave it, YAML of the same, or a table. */
public final class Printer {
    private Printer() {
    }

    public static void print(CliIo io, OutputOptions output, JsonNode data, Supplier<Table> table) {
        print(io, output, () -> data, table);
    }

    /** As above, for data whose JSON costs something to build: built only for {@code -o json|yaml}. */
    public static void print(CliIo io, OutputOptions output, Supplier<JsonNode> data, Supplier<Table> table) {
        switch (output.format()) {
            case json -> io.out().println(json(io, data.get()));
            case yaml -> io.out().print(yaml(data.get()));
            default -> table.get().print(io.out(), !output.noHeaders, io.colour());
        }
    }

    /** JSON for a person on a terminal (indented), compact for a pipe or a file (one line, what jq and scripts read). */
    static String json(CliIo io, JsonNode data) {
        if (!io.terminal()) {
            return data.toString();
        }
        try {
            return HttpJson.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(data);
        } catch (JsonProcessingException e) {
            return data.toString();
        }
    }

    static String yaml(JsonNode data) {
        try {
            // loaded only when asked for: SnakeYAML costs start-up time every other command should not pay
            return new ObjectMapper(YAMLFactory.builder().disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER).build())
                    .writeValueAsString(data);
        } catch (JsonProcessingException e) {
            throw CliException.failed("Could not write YAML (" + e.getClass().getSimpleName() + ").");
        }
    }
}
