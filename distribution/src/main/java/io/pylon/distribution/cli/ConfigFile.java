package io.pylon.distribution.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.jspecify.annotations.Nullable;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The CLI's config file: the contexts and which one is current, as JSON. Where: {@code $PYLON_CONFIG}, else
 * {@code $XDG_CONFIG_HOME/pylon/config}, else {@code ~/.config/pylon/config}. It holds tokens, so the file is created
 * owner-only (0600, its folder 0700) and replaced atomically: a crash never leaves half a file, and at no moment is
 * a token readable by others. One CLI process at a time is assumed per file (the last writer wins, as with kubectl).
 */
public final class ConfigFile {
    // Read and written as a JSON tree with the CLI's one mapper: binding the records would have Jackson build their
    // (de)serializers by reflection at every start, a noticeable part of a short command (BENCHMARKS.md, "CLI").
    private static final String[] FIELDS = {"name", "manager", "user", "token", "expiresAt", "environment", "segment"};

    private final Path path;

    public ConfigFile(Path path) {
        this.path = path;
    }

    public static ConfigFile locate(Map<String, String> env) {
        String explicit = env.get("PYLON_CONFIG");
        if (explicit != null && !explicit.isBlank()) {
            return new ConfigFile(Path.of(explicit));
        }
        String xdg = env.get("XDG_CONFIG_HOME");
        Path base = xdg != null && !xdg.isBlank() ? Path.of(xdg)
                : Path.of(env.getOrDefault("HOME", System.getProperty("user.home")), ".config");
        return new ConfigFile(base.resolve("pylon").resolve("config"));
    }

    public Path path() {
        return path;
    }

    /** The stored contexts; an empty config when the file does not exist yet. */
    public Contents read() {
        if (!Files.exists(path)) {
            return new Contents(null, List.of());
        }
        try {
            JsonNode root = HttpJson.MAPPER.readTree(path.toFile());
            if (!root.isObject()) {
                throw new IOException("not a JSON object");
            }
            List<CliContext> contexts = new ArrayList<>();
            for (JsonNode context : root.path("contexts")) {
                String[] values = new String[FIELDS.length];
                for (int i = 0; i < FIELDS.length; i++) {
                    values[i] = context.path(FIELDS[i]).isTextual() ? context.path(FIELDS[i]).asText() : null;
                }
                contexts.add(new CliContext(values[0], values[1], values[2], values[3], values[4], values[5], values[6]));
            }
            JsonNode current = root.path("currentContext");
            return new Contents(current.isTextual() ? current.asText() : null, List.copyOf(contexts));
        } catch (AccessDeniedException e) {
            throw CliException.failed("Cannot read the config file " + path + ": permission denied.");
        } catch (IOException e) {
            // never the parser's message: it quotes the file's content, tokens included
            throw CliException.failed("The config file " + path + " is not valid; fix or delete it and log in again.");
        }
    }

    public void write(Contents contents) {
        try {
            Path dir = java.util.Objects.requireNonNull(path.toAbsolutePath().getParent(), "an absolute file path has a parent");
            boolean posix = FileSystems.getDefault().supportedFileAttributeViews().contains("posix");
            if (!Files.isDirectory(dir)) {
                if (posix) {
                    Files.createDirectories(dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
                } else {
                    Files.createDirectories(dir);
                }
            }
            Path temp = posix
                    ? Files.createTempFile(dir, ".config", ".tmp", PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")))
                    : Files.createTempFile(dir, ".config", ".tmp");
            try {
                HttpJson.MAPPER.writerWithDefaultPrettyPrinter().writeValue(temp.toFile(), json(contents));
                Files.move(temp, path, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } finally {
                Files.deleteIfExists(temp);
            }
        } catch (IOException e) {
            throw CliException.failed("Cannot write the config file " + path + " (" + e.getClass().getSimpleName() + ").");
        }
    }

    private static ObjectNode json(Contents contents) {
        ObjectNode root = HttpJson.MAPPER.createObjectNode();
        if (contents.currentContext() != null) {
            root.put("currentContext", contents.currentContext());
        }
        ArrayNode list = root.putArray("contexts");
        for (CliContext context : contents.contexts()) {
            String[] values = {context.name(), context.manager(), context.user(), context.token(), context.expiresAt(),
                    context.environment(), context.segment()};
            ObjectNode node = list.addObject();
            for (int i = 0; i < FIELDS.length; i++) {
                if (values[i] != null) {
                    node.put(FIELDS[i], values[i]);
                }
            }
        }
        return root;
    }

    /** The file's content: the contexts in the order they were added and the name of the current one. */
    public record Contents(@Nullable String currentContext, List<CliContext> contexts) {

        public Optional<CliContext> find(String name) {
            return contexts.stream().filter(c -> c.name().equals(name)).findFirst();
        }

        /** {@code context} added or replacing the one of the same name, and made current. */
        public Contents withCurrent(CliContext context) {
            List<CliContext> list = new ArrayList<>(contexts.stream().filter(c -> !c.name().equals(context.name())).toList());
            int at = indexOf(context.name());
            list.add(at < 0 ? list.size() : at, context);
            return new Contents(context.name(), List.copyOf(list));
        }

        public Contents replacing(CliContext context) {
            return new Contents(currentContext, contexts.stream().map(c -> c.name().equals(context.name()) ? context : c).toList());
        }

        public Contents without(String name) {
            return new Contents(name.equals(currentContext) ? null : currentContext,
                    contexts.stream().filter(c -> !c.name().equals(name)).toList());
        }

        public Contents current(String name) {
            return new Contents(name, contexts);
        }

        private int indexOf(String name) {
            for (int i = 0; i < contexts.size(); i++) {
                if (contexts.get(i).name().equals(name)) {
                    return i;
                }
            }
            return -1;
        }
    }
}
