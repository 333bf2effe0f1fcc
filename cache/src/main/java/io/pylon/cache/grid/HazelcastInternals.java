package io.pylon.cache.grid;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.instance.impl.HazelcastInstanceImpl;
import com.hazelcast.instance.impl.HazelcastInstanceProxy;
import com.hazelcast.internal.util.executor.ManagedExecutorService;
import com.hazelcast.spi.impl.NodeEngineImpl;
import com.hazelcast.spi.impl.executionservice.ExecutionService;
import com.hazelcast.spi.impl.executionservice.impl.ExecutionServiceImpl;
import com.hazelcast.spi.impl.operationservice.impl.OperationServiceImpl;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadPoolExecutor;

/**
 * The few Hazelcast internals a member's diagnostics read (its executors and operation threads): the public API
 * does not expose them. Kept in one place so that a Hazelcast upgrade breaks one class.
 */
final class HazelcastInternals {
    /** Executors Hazelcast registers when the member starts; asking for others would create them. */
    static final List<String> STARTUP_EXECUTORS = List.of(ExecutionService.ASYNC_EXECUTOR, ExecutionService.SYSTEM_EXECUTOR,
            ExecutionService.SCHEDULED_EXECUTOR, ExecutionService.OFFLOADABLE_EXECUTOR, ExecutionService.CLIENT_EXECUTOR,
            ExecutionService.CLIENT_QUERY_EXECUTOR, ExecutionService.CLIENT_BLOCKING_EXECUTOR);

    private final NodeEngineImpl nodeEngine;

    HazelcastInternals(HazelcastInstance instance) {
        if (instance instanceof HazelcastInstanceProxy proxy) {
            this.nodeEngine = proxy.getOriginal().node.getNodeEngine();
        } else if (instance instanceof HazelcastInstanceImpl impl) {
            this.nodeEngine = impl.node.getNodeEngine();
        } else {
            throw new IllegalArgumentException("not an embedded Hazelcast member: " + instance.getClass().getName());
        }
    }

    /** Hazelcast's own pools that are real ThreadPoolExecutors, by a name for {@code threads.executorPools}. */
    Map<String, ThreadPoolExecutor> threadPools() {
        Map<String, ThreadPoolExecutor> pools = new LinkedHashMap<>();
        for (String name : STARTUP_EXECUTORS) {
            if (nodeEngine.getExecutionService().getExecutor(name) instanceof ThreadPoolExecutor pool) {
                pools.put(poolName(name), pool);
            }
        }
        if (nodeEngine.getExecutionService() instanceof ExecutionServiceImpl impl
                && impl.getScheduledExecutorService() instanceof ScheduledThreadPoolExecutor scheduler) {
            pools.put("hazelcast-scheduler", scheduler);
        }
        return pools;
    }

    /**
     * What Hazelcast reports of its executors that are not pools of their own (most share one cached pool) and of its
     * operation threads (partition and generic threads with their queues, not a ThreadPoolExecutor).
     */
    Map<String, Object> executors() {
        Map<String, Object> executors = new LinkedHashMap<>();
        for (String name : STARTUP_EXECUTORS) {
            ManagedExecutorService executor = nodeEngine.getExecutionService().getExecutor(name);
            Map<String, Object> stats = new LinkedHashMap<>();
            stats.put("poolSize", executor.getPoolSize());
            stats.put("maximumPoolSize", executor.getMaximumPoolSize());
            stats.put("queueSize", executor.getQueueSize());
            stats.put("completedTaskCount", executor.getCompletedTaskCount());
            executors.put(poolName(name), stats);
        }
        OperationServiceImpl operations = nodeEngine.getOperationService();
        Map<String, Object> threads = new LinkedHashMap<>();
        threads.put("partitionThreads", operations.getPartitionThreadCount());
        threads.put("genericThreads", operations.getGenericThreadCount());
        threads.put("queueSize", operations.getOperationExecutorQueueSize());
        threads.put("priorityQueueSize", operations.getPriorityOperationExecutorQueueSize());
        threads.put("runningOperations", operations.getRunningOperationsCount());
        threads.put("remoteOperations", operations.getRemoteOperationsCount());
        threads.put("executedOperations", operations.getExecutedOperationCount());
        executors.put("hazelcast-operations", threads);
        return executors;
    }

    int partitionCount() {
        return nodeEngine.getPartitionService().getPartitionCount();
    }

    /** Partitions whose primary replica is on this member, read from the local partition table. */
    int ownedPartitions() {
        return nodeEngine.getPartitionService().getMemberPartitions(nodeEngine.getThisAddress()).size();
    }

    /** {@code hz:client-query} is {@code hazelcast-client-query}. */
    static String poolName(String hazelcastName) {
        return "hazelcast-" + hazelcastName.substring(hazelcastName.indexOf(':') + 1);
    }
}
