package io.pylon.cache.client;

import org.jspecify.annotations.Nullable;

/**
 * Hazelcast 5.5 can complete an invocation twice while an instance shuts down: its invocation registry fails every
 * pending invocation just as the answer to one of them arrives (hazelcast/hazelcast#19164, open). It then logs a
 * WARNING with a stack trace, "Future.complete(Object) on completed future", seen on a Cache pod that stopped while it
 * published a partition migration. Nothing is lost: the invocation has ended either way, and the instance is leaving.
 * That record is logged at FINE instead; the same message outside a shutdown stays a WARNING.
 */
final class ShutdownDoubleCompletion {
    static final String MESSAGE = "Future.complete(Object) on completed future";

    private ShutdownDoubleCompletion() {
    }

    /** Whether the line is Hazelcast's double completion, raised from its shutdown. */
    static boolean matches(@Nullable String message, @Nullable Throwable thrown) {
        if (message == null || thrown == null || !message.contains(MESSAGE)) {
            return false;
        }
        for (StackTraceElement frame : thrown.getStackTrace()) {
            if (frame.getMethodName().equals("shutdown") && frame.getClassName().startsWith("com.hazelcast.")) {
                return true;
            }
        }
        return false;
    }
}
