package io.pylon.distribution.cli;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Reads every pod of an environment's Worker and Cache through the Manager's console: one broadcast per module and
 * diagnostics name, all sent at once on virtual threads, merged per pod. A module whose broadcast failed as a whole
 * (unreachable, no URL) becomes one failed row.
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
        Map<String, Map<String, Future<HttpJson.Answer>>> calls = new LinkedHashMap<>();
        try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
            for (String module : modules) {
                Map<String, Future<HttpJson.Answer>> byName = new LinkedHashMap<>();
                for (String name : names(module)) {
                    byName.put(name, threads.submit(() -> manager.getAnswer(CliPaths.diagnostics(environment, module, name, null, null))));
                }
                calls.put(module, byName);
            }
            List<PodSnapshot> pods = new ArrayList<>();
            for (var entry : calls.entrySet()) {
                pods.addAll(module(entry.getKey(), answers(entry.getValue())));
            }
            return pods;
        }
    }

    private static List<String> names(String module) {
        return "worker".equals(module) ? List.of("jvm", "threads", "health", "connections", COMPARE)
                : List.of("jvm", "threads", "health", COMPARE);
    }

    private static Map<String, HttpJson.Answer> answers(Map<String, Future<HttpJson.Answer>> futures) {
        Map<String, HttpJson.Answer> answers = new LinkedHashMap<>();
        for (var entry : futures.entrySet()) {
            try {
                answers.put(entry.getKey(), entry.getValue().get());
            } catch (java.util.concurrent.ExecutionException e) {
                if (e.getCause() instanceof CliException cli) {
                    throw cli;
                }
                throw CliException.failed("A diagnostics call failed (" + e.getCause().getClass().getSimpleName() + ").");
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw CliException.failed("Interrupted.");
            }
        }
        return answers;
    }

    private static List<PodSnapshot> module(String module, Map<String, HttpJson.Answer> answers) {
        HttpJson.Answer health = answers.get("health");
        if (!health.ok()) {
            return List.of(PodSnapshot.failure(null, module, health.status(), health.description()));
        }
        Map<String, Map<String, JsonNode>> byPod = new LinkedHashMap<>();
        TreeSet<String> names = new TreeSet<>();
        HttpJson.Answer comparison = answers.get(COMPARE);
        // a comparison that failed (pods of an older version answer 404) only leaves the flags out
        Map<String, List<String>> compared = ComparisonFlags.of(comparison != null && comparison.ok() ? comparison.body() : null);
        answers.forEach((name, answer) -> {
            if (name.equals(COMPARE)) {
                return;
            }
            for (JsonNode pod : answer.body().path("pods")) {
                String podName = pod.path("podName").asText();
                names.add(podName);
                byPod.computeIfAbsent(podName, k -> new LinkedHashMap<>()).put(name, pod);
            }
        });
        List<PodSnapshot> pods = new ArrayList<>();
        for (String podName : names) {
            Map<String, JsonNode> of = byPod.get(podName);
            pods.add(PodSnapshot.of(podName, module, of.get("jvm"), of.get("threads"), of.get("health"), of.get("connections"))
                    .withCompared(compared.getOrDefault(podName, List.of())));
        }
        return pods;
    }
}
