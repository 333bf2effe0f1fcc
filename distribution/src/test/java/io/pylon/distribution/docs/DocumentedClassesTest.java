package io.pylon.distribution.docs;

import org.junit.jupiter.api.Test;

import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.zip.ZipFile;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every class the README, BENCHMARKS.md and docs/ name in backticks ({@code `ConnectionGuard`},
 * {@code `LocalDiagnostics.answer`}) exists: declared in the repository's Java sources, or a class of a library on
 * the class path or of the JDK; and a member named after one of the repository's classes appears in that class's
 * source. A page that names a class or method the code does not have fails here, not with a reader.
 */
class DocumentedClassesTest {
    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    /** A backticked name in CamelCase with at least two words, optionally followed by a member or a call. */
    private static final Pattern MENTION = Pattern.compile("`([A-Z][a-z0-9]+[A-Z][A-Za-z0-9]*)(?:[.#]([a-z][A-Za-z0-9]*))?(?:[.#(][^`]*)?`");
    private static final Pattern DECLARATION = Pattern.compile("\\b(?:class|record|interface|enum) ([A-Z][A-Za-z0-9]*)");
    /** JVM flags the docs quote without their {@code -XX:} prefix. */
    private static final Set<String> NOT_CLASSES = Set.of("ExitOnOutOfMemoryError", "OnOutOfMemoryError");

    @Test
    void everyClassTheDocsNameExists() throws IOException {
        Map<String, String> sources = declaredInSources();
        Set<String> known = new HashSet<>(sources.keySet());
        known.addAll(onClassPathAndInTheJdk());
        known.addAll(NOT_CLASSES);
        Set<String> missing = new TreeSet<>();
        int mentions = 0;
        for (Path page : pages()) {
            Matcher mention = MENTION.matcher(Files.readString(page));
            while (mention.find()) {
                mentions++;
                String type = mention.group(1);
                String member = mention.group(2);
                if (!known.contains(type)) {
                    missing.add(type + " (" + ROOT.relativize(page) + ")");
                } else if (member != null && sources.containsKey(type)
                        && !Pattern.compile("\\b" + member + "\\b").matcher(sources.get(type)).find()) {
                    missing.add(type + "." + member + " (" + ROOT.relativize(page) + ")");
                }
            }
        }
        assertThat(mentions).as("class names found in the docs").isGreaterThan(100);
        assertThat(missing).as("classes (or members of the repository's classes) the docs name that neither the "
                + "sources nor a library declare").isEmpty();
    }

    private static List<Path> pages() throws IOException {
        List<Path> pages = new ArrayList<>(List.of(ROOT.resolve("README.md"), ROOT.resolve("BENCHMARKS.md")));
        try (Stream<Path> docs = Files.list(ROOT.resolve("docs"))) {
            docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(pages::add);
        }
        return pages;
    }

    /** Each class declared in the repository, with the text of the source files that declare it. */
    private static Map<String, String> declaredInSources() throws IOException {
        Map<String, String> names = new HashMap<>();
        try (Stream<Path> walk = Files.walk(ROOT)) {
            List<Path> sources = walk.filter(p -> p.toString().endsWith(".java"))
                    .filter(p -> !p.toString().contains(File.separator + "target" + File.separator))
                    .toList();
            for (Path source : sources) {
                String text = Files.readString(source);
                Matcher declared = DECLARATION.matcher(text);
                while (declared.find()) {
                    names.merge(declared.group(1), text, String::concat);
                }
            }
        }
        assertThat(names).as("classes declared in the repository").containsKeys("PodServer", "LocalDiagnostics");
        return names;
    }

    private static Set<String> onClassPathAndInTheJdk() throws IOException {
        Set<String> names = new HashSet<>();
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            if (entry.endsWith(".jar") && Files.isRegularFile(Path.of(entry))) {
                try (ZipFile jar = new ZipFile(entry)) {
                    jar.stream().forEach(e -> addClassName(e.getName(), names));
                }
            }
        }
        Path modules = FileSystems.getFileSystem(URI.create("jrt:/")).getPath("/modules");
        try (Stream<Path> walk = Files.walk(modules)) {
            walk.forEach(p -> addClassName(p.toString(), names));
        }
        assertThat(names).as("classes of the libraries and the JDK").contains("ThreadMXBean", "WebServer");
        return names;
    }

    private static void addClassName(String path, Set<String> names) {
        if (!path.endsWith(".class")) {
            return;
        }
        String simple = path.substring(path.lastIndexOf('/') + 1, path.length() - ".class".length());
        for (String part : simple.split("\\$")) {
            names.add(part);
        }
    }
}
