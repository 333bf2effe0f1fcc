package io.pylon.core.version;

import io.pylon.core.http.Json;
import io.pylon.core.http.PodPaths;
import io.pylon.core.http.Routes;

import java.util.LinkedHashMap;
import java.util.Map;

/** {@code GET /<segment>/management/version}: the module, its version, the commit and build time, the Java runtime. */
public final class VersionEndpoint {
    private final byte[] body;

    public VersionEndpoint(String module, String displayName, BuildInfo build) {
        Map<String, Object> java = new LinkedHashMap<>();
        java.put("version", Runtime.version().toString());
        java.put("vendor", System.getProperty("java.vendor"));
        java.put("runtime", System.getProperty("java.runtime.name"));
        java.put("vm", System.getProperty("java.vm.name"));
        Map<String, Object> map = new LinkedHashMap<>();
        map.put("module", module);
        map.put("name", "Pylon " + displayName);
        map.put("version", build.version());
        map.put("commit", build.commit());
        map.put("commitTime", build.commitTime());
        map.put("dirty", build.dirty());
        map.put("buildTime", build.buildTime());
        map.put("java", java);
        this.body = Json.bytes(map);
    }

    public void register(Routes routes, String segment) {
        routes.get(PodPaths.of(segment).version(), (req, res) -> {
            res.header(Json.CONTENT_TYPE_JSON);
            res.send(body);
        });
    }
}
