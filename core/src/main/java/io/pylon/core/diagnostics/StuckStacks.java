package io.pylon.core.diagnostics;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * The fleet-wide part of a {@code hotthreads} broadcast: identical stuck stacks grouped across pods, largest group
 * first, each with a one-line summary ("40 threads on 17 of 30 pods at HikariPool.getConnection"). Stateless.
 */
final class StuckStacks {
    private StuckStacks() {
    }

    static Map<String, Object> group(List<JsonNode> pods, String key) {
        Map<List<String>, Group> groups = new LinkedHashMap<>();
        for (JsonNode pod : pods) {
            String podName = pod.path("podName").asText();
            for (JsonNode stack : pod.path(key).path("stuckStacks")) {
                List<String> frames = new ArrayList<>();
                stack.path("frames").forEach(f -> frames.add(f.asText()));
                Group group = groups.computeIfAbsent(frames, Group::new);
                group.threads += stack.path("threads").asInt();
                group.pods.add(podName);
            }
        }
        List<Map<String, Object>> list = new ArrayList<>();
        groups.values().stream().sorted(Comparator.comparingInt((Group g) -> g.threads).reversed()
                        .thenComparing(g -> -g.pods.size()))
                .forEach(g -> list.add(g.toMap(pods.size())));
        Map<String, Object> answer = new LinkedHashMap<>();
        answer.put("podsAnswered", pods.size());
        answer.put("stuckGroups", list);
        return answer;
    }

    private static final class Group {
        final List<String> frames;
        final TreeSet<String> pods = new TreeSet<>();
        int threads;

        Group(List<String> frames) {
            this.frames = frames;
        }

        Map<String, Object> toMap(int answered) {
            Map<String, Object> map = new LinkedHashMap<>();
            map.put("summary", threads + (threads == 1 ? " thread" : " threads") + " on " + pods.size() + " of "
                    + answered + (answered == 1 ? " pod" : " pods") + " at " + at());
            map.put("threads", threads);
            map.put("podCount", pods.size());
            map.put("pods", List.copyOf(pods));
            map.put("frames", frames);
            return map;
        }

        /** The top frame as Class.method without package and line: "HikariPool.getConnection". */
        private String at() {
            if (frames.isEmpty()) {
                return "?";
            }
            String frame = frames.getFirst();
            int colon = frame.indexOf(':');
            String method = colon < 0 ? frame : frame.substring(0, colon);
            int lastDot = method.lastIndexOf('.');
            int classDot = lastDot < 0 ? -1 : method.lastIndexOf('.', lastDot - 1);
            return method.substring(classDot + 1);
        }
    }
}
