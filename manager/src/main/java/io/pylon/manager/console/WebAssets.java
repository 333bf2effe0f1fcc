package io.pylon.manager.console;

import org.jspecify.annotations.Nullable;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * The files of the web UI, read once from {@code web/} on the classpath (a folder in development, the jar in
 * production). Their combined SHA-256 names the asset version, so asset URLs change whenever any file changes and can
 * be cached for good.
 */
final class WebAssets {
    static final String ROOT = "web";

    private final Map<String, byte[]> files;
    private final String version;

    private WebAssets(Map<String, byte[]> files, String version) {
        this.files = files;
        this.version = version;
    }

    static WebAssets load() {
        URL index = WebAssets.class.getClassLoader().getResource(ROOT + "/index.html");
        if (index == null) {
            throw new IllegalStateException("The web UI is missing from the classpath (" + ROOT + "/index.html)");
        }
        try {
            URI uri = index.toURI();
            if ("jar".equals(uri.getScheme())) {
                try (FileSystem jar = FileSystems.newFileSystem(uri, Map.of())) {
                    return read(jar.getPath("/" + ROOT));
                }
            }
            Path folder = Path.of(uri).getParent();   // index.html is a file, so it has one
            if (folder == null) {
                throw new IllegalStateException("The web UI's index.html has no folder: " + uri);
            }
            return read(folder);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read the web UI", e);
        } catch (URISyntaxException e) {
            throw new IllegalStateException("Cannot locate the web UI: " + e.getMessage(), e);
        }
    }

    private static WebAssets read(Path root) throws IOException {
        Map<String, byte[]> files = new TreeMap<>();
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path path : paths.filter(Files::isRegularFile).toList()) {
                String relative = root.relativize(path).toString().replace('\\', '/');
                files.put(relative, Files.readAllBytes(path));
            }
        }
        MessageDigest digest = sha256();
        files.forEach((name, bytes) -> {
            digest.update(name.getBytes(java.nio.charset.StandardCharsets.UTF_8));
            digest.update(bytes);
        });
        String version = HexFormat.of().formatHex(digest.digest()).substring(0, 12);
        return new WebAssets(Map.copyOf(files), version);
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The file at {@code path} relative to {@code web/}, or null. */
    byte @Nullable [] file(String path) {
        return files.get(path);
    }

    String version() {
        return version;
    }

    static String contentType(String path) {
        String lower = path.toLowerCase(java.util.Locale.ROOT);
        int dot = lower.lastIndexOf('.');
        String extension = dot < 0 ? "" : lower.substring(dot + 1);
        return switch (extension) {
            case "html" -> "text/html; charset=UTF-8";
            case "js", "mjs" -> "text/javascript; charset=UTF-8";
            case "css" -> "text/css; charset=UTF-8";
            case "svg" -> "image/svg+xml";
            case "json" -> "application/json";
            case "png" -> "image/png";
            case "ico" -> "image/x-icon";
            case "woff2" -> "font/woff2";
            case "txt" -> "text/plain; charset=UTF-8";
            default -> "application/octet-stream";
        };
    }
}
