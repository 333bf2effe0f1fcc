package io.pylon.manager.console;

import com.fasterxml.jackson.databind.JsonNode;
import io.helidon.webclient.api.HttpClientResponse;
import io.pylon.core.http.Json;
import io.pylon.core.http.PodPaths;
import io.pylon.manager.environments.Environment;
import org.jspecify.annotations.Nullable;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * Checks the five modules of an environment at once: health and version of each, through the environment's access
 * URLs, with a timeout so that one dead module costs at most that long.
 */
final class ModuleProbe {
    static final Map<String, String> MODULES = orderedModules();

    private final Upstream upstream;
    private final PodPaths paths;
    private final Duration timeout;

    ModuleProbe(Upstream upstream, String segment, Duration timeout) {
        this.upstream = upstream;
        this.paths = PodPaths.of(segment);
        this.timeout = timeout;
    }

    private static Map<String, String> orderedModules() {
        Map<String, String> modules = new LinkedHashMap<>();
        modules.put("manager", "Manager");
        modules.put("worker", "Worker");
        modules.put("cache", "Cache");
        modules.put("integration", "Integration");
        modules.put("portal", "Portal");
        return java.util.Collections.unmodifiableMap(modules);
    }

    Map<String, Object> check(Environment environment) {
        String checkedAt = Instant.now().toString();
        List<CompletableFuture<ModuleStatus>> checks = new ArrayList<>();
        try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
            MODULES.forEach((module, displayName) -> checks.add(CompletableFuture.supplyAsync(
                    () -> checkOne(environment, module, displayName, checkedAt), threads)));
        }
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("environment", environment.name());
        body.put("checkedAt", checkedAt);
        body.put("modules", checks.stream().map(CompletableFuture::join).toList());
        return body;
    }

    private ModuleStatus checkOne(Environment environment, String module, String displayName, String checkedAt) {
        String url = ModuleUrls.of(environment, module);
        if (url == null) {
            return ModuleStatus.notConfigured(module, displayName, checkedAt);
        }
        String what = "the " + displayName + " of environment " + environment.name();
        long t0 = System.nanoTime();
        JsonNode health;
        int httpStatus;
        try (HttpClientResponse response = upstream.get(url + paths.health(), Map.of(), null,
                "application/json", timeout, what)) {
            httpStatus = response.status().code();
            health = readJson(response);
        } catch (ConsoleException e) {
            return new ModuleStatus(module, displayName, url, "UNREACHABLE", null, null, null, null,
                    elapsedMs(t0), checkedAt, e.getMessage());
        } catch (RuntimeException e) {
            return new ModuleStatus(module, displayName, url, "UNREACHABLE", null, null, null, null,
                    elapsedMs(t0), checkedAt, Upstream.failure(e, what, url).getMessage());
        }
        long responseTime = elapsedMs(t0);
        String status = health != null && health.path("status").isTextual() ? health.path("status").asText()
                : (httpStatus == 200 ? "UP" : "DOWN");
        JsonNode versionDetails = version(url, what);
        String version = versionDetails != null && versionDetails.path("version").isTextual()
                ? versionDetails.path("version").asText() : null;
        String error = httpStatus == 200 || httpStatus == 503 ? null
                : "The health endpoint answered HTTP " + httpStatus + ".";
        return new ModuleStatus(module, displayName, url, status, httpStatus, version, versionDetails,
                health == null ? null : health.get("checks"), responseTime, checkedAt, error);
    }

    private @Nullable JsonNode version(String url, String what) {
        try (HttpClientResponse response = upstream.get(url + paths.version(), Map.of(), null,
                "application/json", timeout, what)) {
            return response.status().code() == 200 ? readJson(response) : null;
        } catch (RuntimeException e) {
            return null;
        }
    }

    private static @Nullable JsonNode readJson(HttpClientResponse response) {
        try {
            byte[] bytes = response.inputStream().readAllBytes();
            return bytes.length == 0 ? null : Json.MAPPER.readTree(bytes);
        } catch (java.io.IOException e) {
            return null;
        }
    }

    private static long elapsedMs(long t0) {
        return (System.nanoTime() - t0) / 1_000_000;
    }
}
