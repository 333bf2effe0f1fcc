package io.pylon.manager.deployments;

import org.jspecify.annotations.Nullable;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One numbered deployment of an environment: a snapshot {proxy -> revision} rendered as one bundle.
 *
 * @param kind        {@code deploy}, {@code rollback} or {@code import}
 * @param fromVersion for a rollback, the version whose snapshot it deployed again; null otherwise
 */
public record Deployment(String environment, long version, String sha256, String kind, @Nullable Long fromVersion,
                         String author, Instant createdAt, String comment, Map<String, Integer> proxies) {

    public Map<String, Object> toJson() {
        Map<String, Object> map = new LinkedHashMap<>();
        map.put("environment", environment);
        map.put("version", version);
        map.put("hash", sha256);
        map.put("kind", kind);
        map.put("fromVersion", fromVersion);
        map.put("author", author);
        map.put("createdAt", createdAt.toString());
        map.put("comment", comment);
        map.put("proxies", proxies);
        return map;
    }
}
