package io.pylon.core.diagnostics;

import java.lang.management.LockInfo;
import java.lang.management.ManagementFactory;
import java.lang.management.MonitorInfo;
import java.lang.management.RuntimeMXBean;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * {@code threaddump} under the key {@code threadDump}: a jstack-like text of every platform thread with its full
 * stack (not the 8 frames of {@link ThreadInfo#toString()}), the lock each waits on and its owner, the monitors and
 * ownable synchronizers each holds, a deadlock section when there is one, then the virtual threads.
 */
public final class ThreadDumpSection implements DiagnosticSection {
    public static final String NAME = "threaddump";
    public static final String KEY = "threadDump";

    private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    private final RuntimeMXBean runtime = ManagementFactory.getRuntimeMXBean();
    private final VirtualThreadDump virtualThreads;
    private final SecretMasker masker;

    ThreadDumpSection(VirtualThreadDump virtualThreads, SecretMasker masker) {
        this.virtualThreads = virtualThreads;
        this.masker = masker;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String key() {
        return KEY;
    }

    @Override
    public boolean heavy() {
        return true;
    }

    @Override
    public Object collect() {
        ThreadInfo[] infos = threads.dumpAllThreads(threads.isObjectMonitorUsageSupported(),
                threads.isSynchronizerUsageSupported());
        StringBuilder out = new StringBuilder(256 + infos.length * 1024);
        out.append(Instant.now()).append('\n');
        out.append("Full thread dump ").append(runtime.getVmName()).append(" (").append(runtime.getVmVersion())
                .append("), ").append(infos.length).append(" platform threads:\n\n");
        Map<Long, ThreadInfo> byId = new HashMap<>();
        for (ThreadInfo info : infos) {
            byId.put(info.getThreadId(), info);
            appendThread(out, info);
        }
        long[] deadlocked = threads.findDeadlockedThreads();
        if (deadlocked != null) {
            appendDeadlocks(out, deadlocked, byId);
        }
        Set<Long> platformIds = new HashSet<>(byId.keySet());
        virtualThreads.append(out, platformIds);
        return masker.withoutEnvironmentId(out.toString());
    }

    static void appendThread(StringBuilder out, ThreadInfo info) {
        out.append('"').append(info.getThreadName()).append("\" #").append(info.getThreadId());
        if (info.isDaemon()) {
            out.append(" daemon");
        }
        out.append(" prio=").append(info.getPriority());
        if (info.isInNative()) {
            out.append(" (in native)");
        }
        if (info.isSuspended()) {
            out.append(" (suspended)");
        }
        out.append("\n   java.lang.Thread.State: ").append(info.getThreadState()).append('\n');
        StackTraceElement[] stack = info.getStackTrace();
        MonitorInfo[] monitors = info.getLockedMonitors();
        LockInfo waitingOn = info.getLockInfo();
        for (int depth = 0; depth < stack.length; depth++) {
            out.append("\tat ").append(stack[depth]).append('\n');
            if (depth == 0 && waitingOn != null) {
                appendWait(out, info, waitingOn);
            }
            for (MonitorInfo monitor : monitors) {
                if (monitor.getLockedStackDepth() == depth) {
                    out.append("\t- locked ").append(monitor).append('\n');
                }
            }
        }
        if (stack.length == 0 && waitingOn != null) {
            appendWait(out, info, waitingOn);
        }
        LockInfo[] synchronizers = info.getLockedSynchronizers();
        if (synchronizers.length > 0) {
            out.append("\n   Locked ownable synchronizers:\n");
            for (LockInfo lock : synchronizers) {
                out.append("\t- ").append(lock).append('\n');
            }
        }
        out.append('\n');
    }

    private static void appendWait(StringBuilder out, ThreadInfo info, LockInfo lock) {
        StackTraceElement[] stack = info.getStackTrace();
        boolean parked = stack.length > 0 && stack[0].getMethodName().equals("park");
        String verb = switch (info.getThreadState()) {
            case BLOCKED -> "waiting to lock ";
            case WAITING, TIMED_WAITING -> parked ? "parking to wait for " : "waiting on ";
            default -> "on ";
        };
        out.append("\t- ").append(verb).append(lock);
        if (info.getLockOwnerName() != null) {
            out.append(" owned by \"").append(info.getLockOwnerName()).append("\" #").append(info.getLockOwnerId());
        }
        out.append('\n');
    }

    private static void appendDeadlocks(StringBuilder out, long[] ids, Map<Long, ThreadInfo> byId) {
        out.append("Found a Java-level deadlock of ").append(ids.length).append(" threads:\n");
        out.append("=============================\n");
        for (long id : ids) {
            ThreadInfo info = byId.get(id);
            if (info == null) {
                out.append("#").append(id).append(": ended while the dump was taken\n");
                continue;
            }
            out.append('"').append(info.getThreadName()).append("\" #").append(id).append(":\n");
            out.append("  waiting to lock ").append(info.getLockName()).append(",\n");
            out.append("  which is held by \"").append(info.getLockOwnerName()).append("\" #")
                    .append(info.getLockOwnerId()).append('\n');
        }
        out.append('\n');
    }
}
