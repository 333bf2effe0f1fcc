package io.pylon.distribution.cli;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;

/**
 * Reads every pod of an environment's Worker and Cache through the Manager's console: one call per module, sent at
 * once on threads of {@link CallThreads}, of {@code compare?sections=jvm,threads,health[,connections]}: the module's comparison
 * (the OUTLIER and DRIFT flags) with each pod's sections, from one broadcast. A module whose pods predate
 * {@code compare} or its {@code sections} is read the older way, one broadcast per section, without those flags. A
 * module whose call failed as a whole (unreachable, no URL) becomes one failed row.
 */
public final class Fleet {
    public static final List<String> MODULES = List.of("worker", "cache");
    private static final String COMPARE = "compare";

    private final ManagerClient manager;
    private final String environment;

    public Fleet(ManagerClient manager, String environment) {
        this.manager = manager;
        this.environment = environment;
    }

    public List<PodSnapshot> snapshot(List<String> modules) {
        try (ExecutorService threads = CallThreads.perTask("pylon-fleet-call")) {
            List<Future<List<PodSnapshot>>> calls = new ArrayList<>();
            for (String module : modules) {
                calls.add(threads.submit(() -> module(module, threads)));
            }
            List<PodSnapshot> pods = new ArrayList<>();
            for (Future<List<PodSnapshot>> call : calls) {
                pods.addAll(result(call));
            }
            return pods;
        }
    }

    private static List<String> sections(String module) {
        return "worker".equals(module) ? List.of("jvm", "threads", "health", "connections") : List.of("jvm", "threads", "health");
    }

    private List<PodSnapshot> module(String module, ExecutorService threads) {
        HttpJson.Answer answer = manager.getAnswer(CliPaths.diagnostics(environment, module, COMPARE, null, null,
                String.join(",", sections(module))));
        if (answer.ok() && carriesSections(answer.body())) {
            return compared(module, answer.body());
        }
        if (answer.status() == 409 || answer.status() == 502 || answer.status() == 503 || answer.status() == 504) {
            // the module as a whole: no URL, no environment ID, not reachable; asking it again per section won't help
            return List.of(PodSnapshot.failure(null, module, answer.status(), answer.description()));
        }
        return perSection(module, threads);
    }

    /** Whether a 200 of compare is the one asked for: every pod that answered has its sections (older pods ignore it). */
    private static boolean carriesSections(JsonNode comparison) {
        for (JsonNode pod : comparison.path("pods")) {
            if (!pod.has("error") && !pod.has("health")) {
                return false;
            }
        }
        return true;
    }

    private static List<PodSnapshot> compared(String module, JsonNode comparison) {
        Map<String, List<String>> flags = ComparisonFlags.of(comparison);
        TreeSet<String> names = new TreeSet<>();
        Map<String, JsonNode> byPod = new LinkedHashMap<>();
        for (JsonNode pod : comparison.path("pods")) {
            String podName = pod.path("podName").asText();
            names.add(podName);
            byPod.put(podName, pod);
        }
        List<PodSnapshot> pods = new ArrayList<>();
        for (String podName : names) {
            JsonNode pod = byPod.get(podName);
            pods.add(PodSnapshot.of(podName, module, pod, pod, pod, "worker".equals(module) ? pod : null)
                    .withCompared(flags.getOrDefault(podName, List.of())));
        }
        return pods;
    }

    private List<PodSnapshot> perSection(String module, ExecutorService threads) {
        Map<String, Future<HttpJson.Answer>> calls = new LinkedHashMap<>();
        for (String name : sections(module)) {
            calls.put(name, threads.submit(() -> manager.getAnswer(CliPaths.diagnostics(environment, module, name, null, null))));
        }
        Map<String, HttpJson.Answer> answers = new LinkedHashMap<>();
        calls.forEach((name, call) -> answers.put(name, result(call)));
        HttpJson.Answer health = answers.get("health");   // sections(module) always asks for health
        if (health == null || !health.ok()) {
            return List.of(health == null ? PodSnapshot.failure(null, module, 0, "no health answer")
                    : PodSnapshot.failure(null, module, health.status(), health.description()));
        }
        Map<String, Map<String, JsonNode>> byPod = new TreeMap<>();   // sorted by pod name
        answers.forEach((name, answer) -> {
            for (JsonNode pod : answer.body().path("pods")) {
                String podName = pod.path("podName").asText();
                byPod.computeIfAbsent(podName, k -> new LinkedHashMap<>()).put(name, pod);
            }
        });
        List<PodSnapshot> pods = new ArrayList<>();
        for (Map.Entry<String, Map<String, JsonNode>> entry : byPod.entrySet()) {
            String podName = entry.getKey();
            Map<String, JsonNode> of = entry.getValue();
            pods.add(PodSnapshot.of(podName, module, of.get("jvm"), of.get("threads"), of.get("health"), of.get("connections")));
        }
        return pods;
    }

    private static <T> T result(Future<T> call) {
        try {
            return call.get();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof CliException cli) {
                throw cli;
            }
            throw CliException.failed("A diagnostics call failed (" + (e.getCause() != null ? e.getCause() : e).getClass().getSimpleName() + ").");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw CliException.failed("Interrupted.");
        }
    }
}
