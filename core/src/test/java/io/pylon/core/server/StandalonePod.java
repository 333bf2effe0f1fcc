package io.pylon.core.server;

import io.pylon.core.config.Settings;
import io.pylon.core.testing.FakeModule;

import java.util.Map;
import java.util.concurrent.CountDownLatch;

/**
 * A pod in its own JVM for tests where the OS matters (descriptor limits, SIGTERM): what {@code pylon run} does,
 * with a fake module that also reads request bodies. Settings come from system properties; prints its port.
 */
public final class StandalonePod {
    private StandalonePod() {
    }

    public static void main(String[] args) throws InterruptedException {
        FakeModule module = new FakeModule("worker").onStart(context -> context.routes()
                .post("/upload", (req, res) -> res.send("read " + req.content().as(String.class).length())));
        Pod pod = PodServer.start(module, Settings.fromProcess(Map.of()));
        pod.stopOnShutdown();
        System.out.println("PORT " + pod.port());
        System.out.flush();
        new CountDownLatch(1).await();
    }
}
