package io.pylon.distribution.e2e;

import io.pylon.core.testing.TestPods;

import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

/**
 * One loopback platform for all CLI tests of this JVM (a Manager, 2 Worker and 2 Cache pods, started once: under
 * load a start takes most of a minute), on this checkout's own block 127.0.18.x: Workers .11-.12, Caches .21-.22.
 * Also an environment {@code broken} whose Worker and Cache URLs point where nothing listens.
 */
final class CliPlatform {
    static final String BROKEN = "broken";

    private static LoopbackPlatform platform;

    private CliPlatform() {
    }

    static synchronized LoopbackPlatform shared() {
        if (platform == null) {
            platform = new LoopbackPlatform(2, 2, false, i -> "127.0.18." + (11 + i), i -> "127.0.18." + (21 + i));
            Runtime.getRuntime().addShutdownHook(new Thread(platform::close));
            String admin = platform.token("admin", LoopbackPlatform.ADMIN_PASSWORD);
            HttpResponse<String> created = TestPods.send(HttpRequest.newBuilder(URI.create(platform.managerUrl() + "/apiops/environments"))
                    .header("Authorization", "Bearer " + admin).header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString("{\"name\":\"" + BROKEN + "\",\"type\":\"test\",\"urls\":{"
                            + "\"worker\":\"http://127.0.18.99:8091\",\"cache\":\"http://127.0.18.98:8090\"}}"))
                    .build());
            if (created.statusCode() != 201) {
                throw new IllegalStateException("could not create the broken environment: " + created.body());
            }
        }
        return platform;
    }
}
