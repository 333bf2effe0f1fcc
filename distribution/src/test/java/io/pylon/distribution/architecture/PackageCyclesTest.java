package io.pylon.distribution.architecture;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Packages form layers: no Pylon package may depend, directly or through others, on a package that depends back on
 * it. Dependencies are read from the main sources of every module (imports and fully qualified names), so a new
 * cycle fails the build wherever it appears.
 */
class PackageCyclesTest {
    private static final Pattern PACKAGE = Pattern.compile("^package (io\\.pylon[\\w.]*);", Pattern.MULTILINE);
    /** A reference to a Pylon class: packages in lower case, then the class name in upper camel case. */
    private static final Pattern REFERENCE = Pattern.compile("\\b(io\\.pylon(?:\\.[a-z][a-z0-9_]*)+)\\.[A-Z]");

    @Test
    void noPackageDependsOnItselfThroughOthers() {
        Map<String, Set<String>> graph = dependencies(repositoryRoot());
        assertThat(graph).as("packages found").hasSizeGreaterThan(20);
        List<String> cycles = new ArrayList<>();
        for (String start : graph.keySet()) {
            List<String> path = cycleThrough(start, graph);
            if (path != null) {
                cycles.add(String.join(" -> ", path));
            }
        }
        assertThat(cycles).as("package cycles (each shown from one of its packages)").isEmpty();
    }

    /** Some shortest path from {@code start} back to itself, or null. */
    private static List<String> cycleThrough(String start, Map<String, Set<String>> graph) {
        Map<String, String> cameFrom = new TreeMap<>();
        List<String> queue = new ArrayList<>(List.of(start));
        for (int i = 0; i < queue.size(); i++) {
            String at = queue.get(i);
            for (String next : graph.getOrDefault(at, Set.of())) {
                if (next.equals(start)) {
                    List<String> path = new ArrayList<>(List.of(start));
                    for (String p = at; p != null && !p.equals(start); p = cameFrom.get(p)) {
                        path.add(1, p);
                    }
                    path.add(0, start);
                    path.remove(0);
                    path.add(start);
                    return path;
                }
                if (!cameFrom.containsKey(next) && !next.equals(start)) {
                    cameFrom.put(next, at);
                    queue.add(next);
                }
            }
        }
        return null;
    }

    static Map<String, Set<String>> dependencies(Path root) {
        Map<String, Set<String>> graph = new TreeMap<>();
        try (Stream<Path> modules = Files.list(root)) {
            for (Path module : modules.toList()) {
                Path sources = module.resolve("src/main/java");
                if (!Files.isDirectory(sources)) {
                    continue;
                }
                try (Stream<Path> files = Files.walk(sources)) {
                    for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
                        String text = Files.readString(file);
                        Matcher pkg = PACKAGE.matcher(text);
                        if (!pkg.find()) {
                            continue;
                        }
                        String from = pkg.group(1);
                        Set<String> to = graph.computeIfAbsent(from, k -> new TreeSet<>());
                        Matcher ref = REFERENCE.matcher(text);
                        while (ref.find()) {
                            if (!ref.group(1).equals(from)) {
                                to.add(ref.group(1));
                            }
                        }
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return graph;
    }

    private static Path repositoryRoot() {
        Path dir = Path.of("").toAbsolutePath();
        while (dir != null && !Files.exists(dir.resolve("mvnw"))) {
            dir = dir.getParent();
        }
        assertThat(dir).as("the repository root (holding mvnw) above " + Path.of("").toAbsolutePath()).isNotNull();
        return dir;
    }
}
