/**
 * How other modules (the Worker) use the Cache data grid: {@link io.pylon.cache.client.GridClient} (a Hazelcast
 * client that reconnects by itself), its {@link io.pylon.cache.client.CounterStore} for cluster-wide rate-limit
 * counters and its {@link io.pylon.cache.client.ResponseCache}. The member side (the cache module) shares the map
 * names, the cluster name rule and the serialization of the counter entry processor from here.
 */
package io.pylon.cache.client;
