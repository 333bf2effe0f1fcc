package io.pylon.manager.console;

import io.pylon.manager.environments.Environment;
import org.jspecify.annotations.Nullable;

/** The base URL of one module of an environment, as the console calls it. */
final class ModuleUrls {
    private ModuleUrls() {
    }

    /** Without a trailing slash; null when the environment names no URL for the module. */
    static @Nullable String of(Environment environment, String module) {
        String url = environment.urls().get(module);
        if (url == null || url.isBlank()) {
            return null;
        }
        return url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
    }
}
