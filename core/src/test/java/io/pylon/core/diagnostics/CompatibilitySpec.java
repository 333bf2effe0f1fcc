package io.pylon.core.diagnostics;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The field lists of {@code docs/compatibility.md}, read at test time so that the diagnostics contract checks what
 * the published page says rather than a copy of it: the page and the served JSON cannot drift apart.
 *
 * @param envelope       the top-level fields of every single-pod object (namespace and nodeName may be null)
 * @param sections       diagnostics name to the key of its section ({@code threaddump} to {@code threadDump})
 * @param fields         the fields inside sections that clients read
 * @param broadcastPaths the paths clients read in a broadcast answer, relative to one element of {@code pods}
 * @param unreachable    the fields of the element of a pod that could not be reached, and of its error object
 */
public record CompatibilitySpec(List<String> envelope, Map<String, String> sections, List<Field> fields,
                                List<String> broadcastPaths, Unreachable unreachable) {
    private static final Pattern TABLE_ROW = Pattern.compile("(?m)^\\| ([A-Za-z][\\w, ]*?) \\| \\w+ \\|");
    private static final Pattern SECTION_NAME = Pattern.compile("`(\\w+)`(?: \\(for `(\\w+)`\\))?");
    private static final Pattern FIELD_LINE = Pattern.compile(
            "^(?<paths>[A-Za-z][\\w.<>\\[\\]-]*(?:, [A-Za-z][\\w.<>\\[\\]-]*)*)\\s*(?:\\{(?<members>[^}]*)})?\\s*(?<meaning>.*)$");
    private static final Pattern ONLY_FOR = Pattern.compile("\\((Worker|Cache)\\)\\s*$");
    private static final Pattern BROADCAST_PATH = Pattern.compile("`\\.pods\\[]\\.([\\w.]+)`");
    private static final Pattern UNREACHABLE = Pattern.compile(
            "could not be reached[^.]*? with (?<top>.*?) and an `(?<error>\\w+)` object \\((?<members>[^)]*)\\)");
    private static final Pattern BACKTICKED = Pattern.compile("`(\\w+)`");

    /**
     * One line of the spec's field list.
     *
     * @param path    dotted path inside the single-pod object; {@code []} marks an array whose elements hold members
     * @param members fields every element (for an array) or the object at {@code path} must have; empty for a leaf
     * @param meaning the rest of the line ("number", "string", {@code "UP" | "DOWN"}...)
     * @param module  the only module the line applies to ({@code worker}), or null for both
     */
    public record Field(String path, List<String> members, String meaning, String module) {
        /** The name of the diagnostics section the path is in: its first segment. */
        public String sectionKey() {
            return path.split("[.\\[]", 2)[0];
        }
    }

    /** @param top fields of the element; @param error the key of the error object; @param errorMembers its fields */
    public record Unreachable(List<String> top, String error, List<String> errorMembers) {
    }

    /** The page in the repository this test runs in; fails with a clear message when it is not there. */
    public static CompatibilitySpec load() {
        try {
            return parse(Files.readString(path()), "platform");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Where the page is: {@code docs/compatibility.md} under the repository root; fails when missing. */
    public static Path path() {
        Path spec = repositoryRoot().resolve("docs").resolve("compatibility.md");
        if (!Files.isRegularFile(spec)) {
            throw new AssertionError("The compatibility page is missing: expected " + spec.toAbsolutePath()
                    + ". The diagnostics contract test reads its field lists.");
        }
        return spec;
    }

    /** Parses the spec's text; {@code <segment>} in paths becomes {@code segment}. */
    public static CompatibilitySpec parse(String markdown, String segment) {
        String single = chapter(markdown, "## Single-pod object");
        String broadcast = chapter(markdown, "## Broadcast object");

        List<String> envelope = new ArrayList<>();
        Matcher rows = TABLE_ROW.matcher(single);
        while (rows.find()) {
            if (!rows.group(1).equals("field")) {
                Arrays.stream(rows.group(1).split(",")).map(String::strip).forEach(envelope::add);
            }
        }

        String namesSentence = between(single.replaceAll("\\s+", " "), "one section per requested name:", ";");
        Map<String, String> sections = new LinkedHashMap<>();
        Matcher names = SECTION_NAME.matcher(namesSentence);
        while (names.find()) {
            sections.put(names.group(2) != null ? names.group(2) : names.group(1), names.group(1));
        }

        List<Field> fields = new ArrayList<>();
        for (String line : between(single, "```", "```").split("\n")) {
            String text = line.strip();
            if (text.isEmpty() || Character.isWhitespace(line.charAt(0))) {
                continue; // an indented line continues the explanation of the line above
            }
            Matcher m = FIELD_LINE.matcher(text.replace("<segment>", segment));
            if (!m.matches()) {
                throw new AssertionError("compatibility.md: cannot read the field line '" + text + "'");
            }
            List<String> members = m.group("members") == null ? List.of() : split(m.group("members"));
            Matcher only = ONLY_FOR.matcher(m.group("meaning"));
            String module = only.find() ? only.group(1).toLowerCase(java.util.Locale.ROOT) : null;
            for (String path : split(m.group("paths"))) {
                fields.add(new Field(path, members, m.group("meaning"), module));
            }
        }

        List<String> broadcastPaths = new ArrayList<>();
        Matcher paths = BROADCAST_PATH.matcher(broadcast);
        while (paths.find()) {
            broadcastPaths.add(paths.group(1));
        }
        Matcher unreachable = UNREACHABLE.matcher(broadcast.replaceAll("\\s+", " "));
        if (!unreachable.find()) {
            throw new AssertionError("compatibility.md: the broadcast chapter no longer says what an unreachable pod's element holds");
        }
        List<String> top = new ArrayList<>();
        Matcher topNames = BACKTICKED.matcher(unreachable.group("top"));
        while (topNames.find()) {
            top.add(topNames.group(1));
        }
        List<String> errorMembers = new ArrayList<>();
        Matcher errorNames = BACKTICKED.matcher(unreachable.group("members"));
        while (errorNames.find()) {
            errorMembers.add(errorNames.group(1));
        }
        CompatibilitySpec spec = new CompatibilitySpec(List.copyOf(envelope), Map.copyOf(sections), List.copyOf(fields),
                List.copyOf(broadcastPaths), new Unreachable(List.copyOf(top), unreachable.group("error"), List.copyOf(errorMembers)));
        spec.requireSomething();
        return spec;
    }

    /** A spec edit that breaks the parser must fail the test, not turn it into one that checks nothing. */
    private void requireSomething() {
        if (envelope.size() < 5 || sections.size() < 5 || fields.size() < 10 || broadcastPaths.isEmpty()
                || unreachable.top().isEmpty() || unreachable.errorMembers().isEmpty()) {
            throw new AssertionError("compatibility.md: the field lists could not be read (envelope " + envelope
                    + ", sections " + sections + ", " + fields.size() + " field lines, broadcast " + broadcastPaths
                    + ", unreachable " + unreachable + ")");
        }
    }

    private static Path repositoryRoot() {
        Path dir = Path.of("").toAbsolutePath();
        while (dir != null && !Files.isRegularFile(dir.resolve("mvnw"))) {
            dir = dir.getParent();
        }
        if (dir == null) {
            throw new AssertionError("No repository root (a directory with mvnw) above " + Path.of("").toAbsolutePath());
        }
        return dir;
    }

    private static String chapter(String markdown, String heading) {
        int start = markdown.indexOf("\n" + heading);
        if (start < 0) {
            throw new AssertionError("compatibility.md has no chapter '" + heading + "'");
        }
        int end = markdown.indexOf("\n## ", start + 1);
        return markdown.substring(start, end < 0 ? markdown.length() : end);
    }

    private static String between(String text, String from, String to) {
        int start = text.indexOf(from);
        int end = start < 0 ? -1 : text.indexOf(to, start + from.length());
        if (end < 0) {
            throw new AssertionError("compatibility.md: no text between '" + from + "' and '" + to + "'");
        }
        return text.substring(start + from.length(), end);
    }

    private static List<String> split(String list) {
        return Arrays.stream(list.split(",")).map(String::strip).filter(s -> !s.isEmpty()).toList();
    }
}
