package io.pylon.core.version;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

/** Facts of the build, written into the core jar by Maven: version, git commit, build time. */
public record BuildInfo(String version, String commit, String commitTime, boolean dirty, String buildTime) {
    private static final String RESOURCE = "/META-INF/pylon/build.properties";

    public static BuildInfo load() {
        Properties properties = new Properties();
        try (InputStream in = BuildInfo.class.getResourceAsStream(RESOURCE)) {
            if (in != null) {
                properties.load(in);
            }
        } catch (IOException e) {
            // an unreadable resource leaves the facts unknown; the version endpoint still answers
        }
        return new BuildInfo(
                value(properties, "version"),
                value(properties, "commit"),
                value(properties, "commitTime"),
                Boolean.parseBoolean(properties.getProperty("dirty", "false")),
                value(properties, "buildTime"));
    }

    // An unfiltered placeholder (a build outside git, or from an IDE) counts as unknown.
    private static String value(Properties properties, String key) {
        String value = properties.getProperty(key);
        return value == null || value.isBlank() || value.startsWith("${") ? "unknown" : value;
    }
}
