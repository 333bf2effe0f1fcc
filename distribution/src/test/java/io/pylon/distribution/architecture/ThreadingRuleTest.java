package io.pylon.distribution.architecture;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every class with shared mutable state states its threading rule in its javadoc: who may call it from which threads
 * and what guards what. A source file with state that threads share (a {@code volatile} field, a field of an atomic,
 * concurrent or lock type, or {@code synchronized}) must have "Threading:" or "thread-safe" in the javadoc of its
 * top-level type. Read from the main sources of every module, so a new such class fails the build wherever it is.
 */
class ThreadingRuleTest {
    /** Shared mutable state: what a class holds only because several threads use it. */
    private static final Pattern SHARED_STATE = Pattern.compile(
            "\\bvolatile\\s|\\bsynchronized\\b"
                    + "|^\\s*(?:(?:private|protected|public|static|final)\\s+)*"
                    + "(?:Atomic\\w*|Concurrent\\w+|CopyOnWrite\\w+|LongAdder|DoubleAdder|ReentrantLock|ReentrantReadWriteLock"
                    + "|StampedLock|Semaphore|CountDownLatch|BlockingQueue|\\w+BlockingQueue|BlockingDeque|\\w+BlockingDeque)"
                    + "\\b[^=;(]*\\s\\w+\\s*[=;]",
            Pattern.MULTILINE);
    /**
     * The javadoc right before the first top-level type declaration. Its body is matched a run of non-stars at a time
     * (not a character at a time), so a long javadoc does not overflow the regex engine's stack.
     */
    private static final Pattern TYPE_JAVADOC = Pattern.compile(
            "(/\\*\\*[^*]*\\*+(?:[^/*][^*]*\\*+)*/)(?:(?!/\\*\\*)[^;{])*?"
                    + "^(?:public\\s+|final\\s+|abstract\\s+|sealed\\s+|non-sealed\\s+)*(?:class|record|interface|enum)\\s",
            Pattern.MULTILINE);
    private static final Pattern RULE = Pattern.compile("Threading:|thread-safe", Pattern.CASE_INSENSITIVE);

    @Test
    void everyClassWithSharedMutableStateStatesItsThreadingRule() throws IOException {
        List<Path> sources = mainSources(repositoryRoot());
        assertThat(sources).as("main sources found").hasSizeGreaterThan(200);
        List<String> withState = new ArrayList<>();
        List<String> missing = new ArrayList<>();
        for (Path source : sources) {
            String text = withoutLineComments(Files.readString(source));
            if (!SHARED_STATE.matcher(text).find()) {
                continue;
            }
            withState.add(source.toString());
            Matcher javadoc = TYPE_JAVADOC.matcher(text);
            if (!javadoc.find() || !RULE.matcher(javadoc.group(1)).find()) {
                missing.add(repositoryRoot().relativize(source).toString());
            }
        }
        assertThat(withState).as("classes with shared mutable state found").hasSizeGreaterThan(40);
        assertThat(missing).as("classes with shared mutable state whose javadoc states no threading rule "
                + "(write 'Threading: ...' in the class's javadoc: which threads call it and what guards what)").isEmpty();
    }

    @Test
    void theProbeSeesStateAndRules() {
        assertThat(SHARED_STATE.matcher("    private volatile boolean stopped;").find()).isTrue();
        assertThat(SHARED_STATE.matcher("    private final AtomicLong count = new AtomicLong();").find()).isTrue();
        assertThat(SHARED_STATE.matcher("    private final Map<String, X> byName = new ConcurrentHashMap<>();").find())
                .as("the declared type decides, not the implementation").isFalse();
        assertThat(SHARED_STATE.matcher("    private final ConcurrentMap<String, X> byName = new ConcurrentHashMap<>();")
                .find()).isTrue();
        assertThat(SHARED_STATE.matcher("        synchronized (lock) {").find()).isTrue();
        assertThat(SHARED_STATE.matcher("        AtomicLong local = counter();").find())
                .as("a local variable is no field, but it is flagged as well: cheap to state").isTrue();
        String typed = "/**\n * Counts.\n *\n * <p>Threading: any thread.\n */\npublic final class Counter {\n";
        Matcher javadoc = TYPE_JAVADOC.matcher(typed);
        assertThat(javadoc.find()).isTrue();
        assertThat(RULE.matcher(javadoc.group(1)).find()).isTrue();
        assertThat(RULE.matcher("/** Counts. */").find()).isFalse();
    }

    private static String withoutLineComments(String text) {
        return text.replaceAll("(?m)^\\s*//.*$", "");
    }

    private static List<Path> mainSources(Path root) {
        List<Path> sources = new ArrayList<>();
        try (Stream<Path> modules = Files.list(root)) {
            for (Path module : modules.filter(Files::isDirectory).toList()) {
                Path main = module.resolve("src/main/java");
                if (Files.isDirectory(main)) {
                    try (Stream<Path> files = Files.walk(main)) {
                        files.filter(f -> f.toString().endsWith(".java")).forEach(sources::add);
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return sources;
    }

    private static Path repositoryRoot() {
        Path dir = Path.of("").toAbsolutePath();
        while (dir != null && !Files.exists(dir.resolve("mvnw"))) {
            dir = dir.getParent();
        }
        assertThat(dir).as("repository root (the folder with mvnw) above the working directory").isNotNull();
        return dir;
    }
}
