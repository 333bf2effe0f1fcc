package io.pylon.integration;

import io.pylon.core.testing.ChildPod;

/** An Integration pod in its own JVM, for tests that kill it (see {@link io.pylon.core.testing.ChildPods}). */
public final class IntegrationChildPod {
    private IntegrationChildPod() {
    }

    public static void main(String[] args) throws Exception {
        if (java.util.List.of(args).contains("--graceful")) {
            // before the module's loggers exist: java.util.logging's manager is chosen on first use
            System.setProperty("java.util.logging.manager", io.pylon.core.server.PodLogManager.class.getName());
        }
        ChildPod.run(args, new IntegrationModule());
    }
}
