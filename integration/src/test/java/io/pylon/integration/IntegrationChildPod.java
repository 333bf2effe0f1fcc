package io.pylon.integration;

import io.pylon.core.testing.ChildPod;

/** An Integration pod in its own JVM, for tests that kill it (see {@link io.pylon.core.testing.ChildPods}). */
public final class IntegrationChildPod {
    private IntegrationChildPod() {
    }

    public static void main(String[] args) throws Exception {
        ChildPod.prepare(args);
        ChildPod.run(args, new IntegrationModule());
    }
}
