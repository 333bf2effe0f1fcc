package io.pylon.distribution.cli;

import org.jspecify.annotations.Nullable;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * {@code pylon proxies ...}: the gateway's API proxy definitions in the Manager. {@code apply -f} creates a proxy or
 * writes its next revision (with {@code If-Match} on the revision it read, so a change made meanwhile is not lost).
 */
@Command(name = "proxies", description = "Lists and manages API proxies (changes need the operator or admin role).")
public final class ProxiesCommand implements Callable<Integer> {
    /** The Manager's own bound on a definition; a larger file is refused before it is sent. */
    static final int MAX_DEFINITION = 256 * 1024;

    private final CliIo io;

    @Mixin
    ContextOptions contextOptions;

    @Mixin
    OutputOptions output;

    public ProxiesCommand(CliIo io) {
        this.io = io;
    }

    @Override
    public Integer call() {
        JsonNode proxies = manager().get(CliPaths.proxies()).path("proxies");
        Table table = new Table(List.of("NAME", "REVISION", "PATH", "UPSTREAMS", "UPDATED", "BY"));
        for (JsonNode proxy : proxies) {
            table.addValues(proxy.path("name").asText(), proxy.path("revision").asInt(),
                    proxy.path("pathPrefix").asText(null), upstreams(proxy.path("definition")),
                    proxy.path("updatedAt").asText(), proxy.path("updatedBy").asText(null));
        }
        Printer.print(io, output, proxies, () -> table);
        return 0;
    }

    @Command(name = "get", description = "Shows one proxy: a summary, or its definition with -o yaml|json (what apply -f takes).")
    int get(@Parameters(paramLabel = "NAME") String name) {
        JsonNode proxy = manager().get(CliPaths.proxy(name));
        Printer.print(io, output, proxy.path("definition"), () -> {
            Table table = new Table(List.of("NAME", "REVISION", "PATH", "UPSTREAMS", "DEPLOYED", "UPDATED", "BY"));
            table.addValues(proxy.path("name").asText(), proxy.path("revision").asInt(), proxy.path("pathPrefix").asText(null),
                    upstreams(proxy.path("definition")), deployed(proxy.path("deployments")),
                    proxy.path("updatedAt").asText(), proxy.path("updatedBy").asText(null));
            return table;
        });
        return 0;
    }

    @Command(name = "apply", description = "Creates a proxy, or writes its next revision, from a YAML or JSON definition.")
    int apply(@Option(names = {"-f", "--filename"}, paramLabel = "FILE", required = true,
                      description = "The definition (YAML or JSON); - reads standard input.") String file,
              @Option(names = "--comment", description = "Why (kept with the revision).") String comment) {
        byte[] body = read(file);
        boolean json = looksLikeJson(body);
        String name = nameOf(body, file);
        ManagerClient manager = manager();
        HttpJson.Answer current = manager.getAnswer(CliPaths.proxy(name));
        String query = comment == null ? "" : "?comment=" + URLEncoder.encode(comment, StandardCharsets.UTF_8);
        String type = json ? "application/json" : "application/yaml";
        JsonNode written;
        if (current.status() == 404) {
            written = manager.send("POST", CliPaths.proxies() + query, body, type, ManagerClient.CALL_TIMEOUT, Map.of());
            io.out().println("Created proxy " + Text.printable(name) + " (revision " + written.path("revision").asInt() + ").");
        } else if (current.ok()) {
            int revision = current.body().path("revision").asInt();
            written = manager.send("PUT", CliPaths.proxy(name) + query, body, type, ManagerClient.CALL_TIMEOUT,
                    Map.of("If-Match", "\"" + revision + "\""));
            io.out().println("Proxy " + Text.printable(name) + " is at revision " + written.path("revision").asInt() + ".");
        } else {
            throw CliException.failed(Text.printable(current.description()) + " (HTTP " + current.status() + ")");
        }
        return 0;
    }

    @Command(name = "delete", description = "Deletes a proxy and its history (refused while it is deployed).")
    int delete(@Parameters(paramLabel = "NAME") String name) {
        manager().send("DELETE", CliPaths.proxy(name), null);
        io.out().println("Deleted proxy " + Text.printable(name) + ".");
        return 0;
    }

    private byte[] read(String file) {
        try {
            byte[] body = "-".equals(file) ? io.in().readNBytes(MAX_DEFINITION + 1) : readFile(Path.of(file));
            if (body.length > MAX_DEFINITION) {
                throw CliException.usage(file + " is larger than " + MAX_DEFINITION / 1024 + " KiB, the most a definition may be.");
            }
            if (body.length == 0) {
                throw CliException.usage(("-".equals(file) ? "Standard input" : file) + " is empty: expected a proxy definition.");
            }
            return body;
        } catch (NoSuchFileException e) {
            throw CliException.usage("No file " + Text.printable(file) + ".");
        } catch (IOException | java.nio.file.InvalidPathException e) {
            throw CliException.usage("Cannot read " + Text.printable(file) + ": " + e.getClass().getSimpleName() + ".");
        }
    }

    private static byte[] readFile(Path path) throws IOException {
        if (Files.size(path) > MAX_DEFINITION) {
            return new byte[MAX_DEFINITION + 1];
        }
        return Files.readAllBytes(path);
    }

    static boolean looksLikeJson(byte[] body) {
        for (byte b : body) {
            if (!Character.isWhitespace(b)) {
                return b == '{';
            }
        }
        return false;
    }

    /** The definition's name, read here to choose between create and update; the Manager validates the rest. */
    private static String nameOf(byte[] body, String file) {
        JsonNode document;
        try {
            document = new ObjectMapper(new YAMLFactory()).readTree(body); // YAML reads JSON too
        } catch (IOException e) {
            String where = e instanceof com.fasterxml.jackson.core.JacksonException j && j.getLocation() != null
                    ? " at line " + j.getLocation().getLineNr() + ", column " + j.getLocation().getColumnNr() : "";
            throw CliException.usage(Text.printable(file) + " is not valid YAML or JSON" + where + ".");
        }
        if (document == null || !document.isObject()) {
            throw CliException.usage(Text.printable(file) + " must hold one proxy definition (an object with 'name', "
                    + "'pathPrefix' and 'upstreams').");
        }
        if (!document.path("name").isTextual() || document.path("name").asText().isBlank()) {
            throw CliException.usage(Text.printable(file) + ": field 'name' is missing; a proxy definition names its proxy.");
        }
        return document.path("name").asText();
    }

    static @Nullable String upstreams(JsonNode definition) {
        StringBuilder out = new StringBuilder();
        for (JsonNode upstream : definition.path("upstreams")) {
            out.append(out.isEmpty() ? "" : ",").append(upstream.isTextual() ? upstream.asText() : upstream.path("url").asText());
        }
        return out.isEmpty() ? null : out.toString();
    }

    private static @Nullable String deployed(JsonNode deployments) {
        StringBuilder out = new StringBuilder();
        for (Iterator<Map.Entry<String, JsonNode>> it = deployments.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> entry = it.next();
            out.append(out.isEmpty() ? "" : ",").append(entry.getKey()).append(':').append(entry.getValue().asText());
        }
        return out.isEmpty() ? null : out.toString();
    }

    private ManagerClient manager() {
        return Session.open(io, contextOptions).manager();
    }
}
