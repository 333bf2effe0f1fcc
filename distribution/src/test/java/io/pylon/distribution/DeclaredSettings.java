package io.pylon.distribution;

import io.pylon.core.config.Setting;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Every {@link Setting} held in a static field of any main class of any module, found by walking each module's
 * {@code target/classes} (the modules listed in the root pom.xml), so a setting that no {@code all()} list
 * collects still shows up.
 */
final class DeclaredSettings {
    private static final Pattern MODULE = Pattern.compile("<module>([^<]+)</module>");
    /** The field descriptor of a Setting: only class files that contain it are loaded. */
    private static final String DESCRIPTOR = "L" + Setting.class.getName().replace('.', '/') + ";";

    private DeclaredSettings() {
    }

    /** Key to the class and field that declare it. */
    static TreeMap<String, String> in(Path repoRoot) throws Exception {
        TreeMap<String, String> found = new TreeMap<>();
        for (Path classes : moduleClassDirectories(repoRoot)) {
            for (Path file : classFiles(classes)) {
                if (!mentionsSetting(file)) {
                    continue;
                }
                String name = classes.relativize(file).toString().replace(file.getFileSystem().getSeparator(), ".");
                Class<?> type = Class.forName(name.substring(0, name.length() - ".class".length()), false,
                        DeclaredSettings.class.getClassLoader());
                for (Field field : type.getDeclaredFields()) {
                    if (Modifier.isStatic(field.getModifiers()) && field.getType() == Setting.class) {
                        field.setAccessible(true);
                        Setting<?> setting = (Setting<?>) field.get(null);
                        found.put(setting.key(), type.getName() + "." + field.getName());
                    }
                }
            }
        }
        return found;
    }

    private static List<Path> moduleClassDirectories(Path repoRoot) throws IOException {
        List<Path> dirs = new ArrayList<>();
        Matcher modules = MODULE.matcher(Files.readString(repoRoot.resolve("pom.xml")));
        while (modules.find()) {
            Path module = repoRoot.resolve(modules.group(1).strip());
            if (!Files.isDirectory(module.resolve("src").resolve("main"))) {
                continue; // a module of tests only (deploy-tests) declares no setting, and is built after this one
            }
            Path classes = module.resolve("target").resolve("classes");
            if (!Files.isDirectory(classes)) {
                throw new IllegalStateException(classes + " is missing: build every module first "
                        + "(./mvnw -pl distribution -am verify)");
            }
            dirs.add(classes);
        }
        return dirs;
    }

    private static List<Path> classFiles(Path dir) throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            return files.filter(f -> f.toString().endsWith(".class")).toList();
        }
    }

    private static boolean mentionsSetting(Path classFile) {
        try {
            return new String(Files.readAllBytes(classFile), StandardCharsets.ISO_8859_1).contains(DESCRIPTOR);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
