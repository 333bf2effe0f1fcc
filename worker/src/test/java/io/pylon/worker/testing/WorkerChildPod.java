package io.pylon.worker.testing;

import io.pylon.core.testing.ChildPod;
import io.pylon.worker.WorkerModule;

/** A real Worker pod in its own JVM, for {@link io.pylon.core.testing.ChildPods}: the arguments of {@link ChildPod}. */
public final class WorkerChildPod {
    private WorkerChildPod() {
    }

    public static void main(String[] args) throws Exception {
        ChildPod.run(args, new WorkerModule());
    }
}
