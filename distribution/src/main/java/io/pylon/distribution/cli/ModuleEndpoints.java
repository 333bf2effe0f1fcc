package io.pylon.distribution.cli;

import com.fasterxml.jackson.databind.JsonNode;
import org.jspecify.annotations.Nullable;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;

/**
 * Calls one of the modules' own endpoints ({@code /<segment>/management/health} or {@code .../version}) at the URLs
 * the Manager holds for the environment, all modules at once. These endpoints need no token.
 */
public final class ModuleEndpoints {
    static final Duration TIMEOUT = Duration.ofSeconds(5);

    /** One module's answer: {@code answer} null when it could not be called, then {@code error} says why. */
    public record Result(String module, @Nullable String url, HttpJson.@Nullable Answer answer, @Nullable String error, long millis) {
    }

    private ModuleEndpoints() {
    }

    public static List<Result> call(Session session, List<String> modules, String path) {
        JsonNode urls = session.manager().get(CliPaths.environment(session.environment())).path("urls");
        List<Future<Result>> futures = new ArrayList<>();
        try (ExecutorService threads = CallThreads.perTask("pylon-module-call")) {
            for (String module : modules) {
                String url = urls.path(module).isTextual() ? urls.path(module).asText() : null;
                futures.add(threads.submit(() -> one(module, url, path)));
            }
        }
        return futures.stream().map(Future::resultNow).toList();
    }

    private static Result one(String module, @Nullable String url, String path) {
        if (url == null) {
            return new Result(module, null, null, "no URL in the environment", 0);
        }
        long t0 = System.nanoTime();
        try {
            HttpJson.Answer answer = HttpJson.send(HttpCall.get(URI.create(url + path), TIMEOUT));
            return new Result(module, url, answer, null, (System.nanoTime() - t0) / 1_000_000);
        } catch (CliException e) {
            return new Result(module, url, null, e.getMessage(), (System.nanoTime() - t0) / 1_000_000);
        }
    }
}
