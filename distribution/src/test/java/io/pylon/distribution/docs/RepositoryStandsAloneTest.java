package io.pylon.distribution.docs;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A clone with nothing beside it is complete: no file points at a directory next to the repository, and every
 * relative link of the README and docs/ leads to a file of the repository.
 */
class RepositoryStandsAloneTest {
    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final Set<String> SKIPPED_DIRS = Set.of(".git", "target", "node_modules", ".pylon", ".idea");
    private static final Pattern MARKDOWN_LINK = Pattern.compile("\\]\\(([^)#\\s]+)(?:#[^)]*)?\\)");

    @Test
    void noFileReachesOutsideTheRepository() throws IOException {
        String sibling = ".." + "/shared";
        List<String> offenders = new ArrayList<>();
        for (Path file : textFiles()) {
            String text = Files.readString(file);
            if (text.contains(sibling) || text.contains("shared" + "/spec")) {
                offenders.add(ROOT.relativize(file).toString());
            }
        }
        assertThat(offenders).as("files that read or cite a directory beside the repository").isEmpty();
    }

    @Test
    void everyRelativeLinkOfTheDocsResolves() throws IOException {
        List<Path> pages = new ArrayList<>(List.of(ROOT.resolve("README.md"), ROOT.resolve("BENCHMARKS.md")));
        try (Stream<Path> docs = Files.list(ROOT.resolve("docs"))) {
            docs.filter(p -> p.toString().endsWith(".md")).forEach(pages::add);
        }
        List<String> broken = new ArrayList<>();
        for (Path page : pages) {
            Matcher link = MARKDOWN_LINK.matcher(Files.readString(page).replaceAll("`[^`\\n]*`", ""));
            while (link.find()) {
                String target = link.group(1);
                if (target.contains("://") || target.startsWith("mailto:")) {
                    continue;
                }
                Path resolved = page.getParent().resolve(target).normalize();
                if (!resolved.startsWith(ROOT) || !Files.exists(resolved)) {
                    broken.add(ROOT.relativize(page) + " -> " + target);
                }
            }
        }
        assertThat(pages).hasSizeGreaterThan(5);
        assertThat(broken).as("relative links that point nowhere inside the repository").isEmpty();
    }

    private static List<Path> textFiles() throws IOException {
        List<Path> files = new ArrayList<>();
        try (Stream<Path> walk = Files.walk(ROOT)) {
            walk.filter(p -> StreamSupport.stream(ROOT.relativize(p).spliterator(), false)
                            .noneMatch(part -> SKIPPED_DIRS.contains(part.toString())))
                    .filter(Files::isRegularFile)
                    .filter(p -> p.toString().matches(".*\\.(java|md|sh|xml|yaml|yml|properties|json|js|html|css|py|template|conf)$")
                            || p.getFileName().toString().matches("pylon|run|Dockerfile|pylon-[a-z-]+"))
                    .forEach(files::add);
        }
        assertThat(files).as("text files under " + ROOT).hasSizeGreaterThan(100);
        return files;
    }
}
