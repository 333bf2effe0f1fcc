package io.pylon.core.diagnostics;

import com.fasterxml.jackson.databind.JsonNode;
import io.pylon.core.pod.PodExecutors;
import io.pylon.core.server.ModuleContext;
import io.pylon.core.server.Pod;
import io.pylon.core.testing.Deadlock;
import io.pylon.core.testing.FakeModule;
import io.pylon.core.testing.TestPods;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static io.pylon.core.diagnostics.DiagnosticsClient.call;
import static io.pylon.core.diagnostics.DiagnosticsClient.internal;
import static io.pylon.core.diagnostics.DiagnosticsClient.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DiagnosticsEndpointTest {
    private static final List<String> SHARED = List.of("jvm", "threads", "threaddump", "env", "health", "all");
    private Pod pod;

    @AfterEach
    void stop() {
        if (pod != null) {
            pod.stop();
        }
    }

    private Pod start(FakeModule module, Map<String, String> settings) {
        pod = TestPods.start(module, "worker-0", settings);
        return pod;
    }

    @Test
    void refusesCallersWithoutTheEnvironmentId() {
        start(new FakeModule("worker").servingDiagnostics(), Map.of());
        List<HttpResponse<String>> refused = new ArrayList<>();
        refused.add(TestPods.get(pod, "/platform/diagnostics/jvm?internal=true"));
        refused.add(TestPods.get(pod, "/platform/diagnostics/jvm?internal=true", "Authorization", "guess-me-not-1234"));
        refused.add(TestPods.get(pod, "/platform/diagnostics/heapdump", "Authorization",
                TestPods.ENVIRONMENT_ID.substring(0, 23) + "X"));
        refused.add(TestPods.get(pod, "/platform/diagnostics/nope", "Authorization", "Bearer " + TestPods.ENVIRONMENT_ID));
        for (HttpResponse<String> response : refused) {
            assertThat(response.statusCode()).isEqualTo(401);
            assertThat(response.headers().firstValue("www-authenticate")).isPresent();
            assertThat(response.body()).startsWith("{").doesNotContain("guess-me-not")
                    .doesNotContain(TestPods.ENVIRONMENT_ID.substring(0, 23));
            assertThat(json(response).path("error").asText()).isEqualTo("unauthorized");
            assertThat(json(response).path("error_description").asText()).isNotBlank();
        }
    }

    @Test
    void unknownNamesAnswer404ListingTheOfferedOnes() {
        start(new FakeModule("worker").servingDiagnostics(), Map.of());
        for (String path : List.of("datagrid", "connections", "nope?internal=true", "")) {
            HttpResponse<String> response = call(pod, path);
            assertThat(response.statusCode()).as(path).isEqualTo(404);
            JsonNode body = json(response);
            assertThat(body.path("error").asText()).isEqualTo("not_found");
            List<String> available = new ArrayList<>();
            body.path("details").path("available").forEach(n -> available.add(n.asText()));
            assertThat(available).containsAll(SHARED).contains("heapdump").doesNotContain("datagrid", "connections");
            assertThat(body.path("error_description").asText()).contains("jvm, threads");
        }
        assertThat(call(pod, "jvm?internal=maybe").statusCode()).isEqualTo(400);
    }

    @Test
    void everyNameAnswersTheEnvelopeAsOneCompactLine() {
        start(new FakeModule("worker").servingDiagnostics(), Map.of("pylon.pod.namespace", "pylon-test", "pylon.pod.node", "node-a"));
        for (String name : SHARED) {
            HttpResponse<String> response = call(pod, name + "?internal=true");
            assertThat(response.statusCode()).as(name).isEqualTo(200);
            assertThat(response.headers().firstValue("content-type")).hasValue("application/json");
            assertThat(response.body()).startsWith("{").doesNotContain("\n").doesNotContain(TestPods.ENVIRONMENT_ID);
            JsonNode body = json(response);
            assertThat(body.path("podName").asText()).isEqualTo("worker-0");
            assertThat(body.path("podIp").asText()).isEqualTo("127.0.0.1");
            assertThat(body.path("namespace").asText()).isEqualTo("pylon-test");
            assertThat(body.path("nodeName").asText()).isEqualTo("node-a");
            assertThat(body.path("envName").asText()).isEqualTo("test");
            assertThat(body.path("module").asText()).isEqualTo("worker");
            assertThat(body.path("version").asText()).isNotBlank();
            assertThat(body.path("responseTime").isNumber()).isTrue();
            assertThat(body.path("responseTime").asDouble()).isGreaterThanOrEqualTo(0);
        }
        JsonNode all = internal(pod, "all");
        assertThat(all.has("jvm") && all.has("threads") && all.has("threadDump") && all.has("env") && all.has("health"))
                .isTrue();
        assertThat(all.has("heapdump")).isFalse();
    }

    @Test
    void jvmHoldsPlausibleMemoryCollectorsAndRuntime() {
        start(new FakeModule("worker").servingDiagnostics(), Map.of());
        JsonNode jvm = internal(pod, "jvm").path("jvm");
        JsonNode heap = jvm.path("memory").path("heap");
        assertThat(heap.path("used").asLong()).isPositive().isLessThanOrEqualTo(heap.path("committed").asLong());
        assertThat(heap.path("max").asLong()).satisfiesAnyOf(max -> assertThat(max).isEqualTo(-1),
                max -> assertThat(max).isGreaterThanOrEqualTo(heap.path("committed").asLong()));
        assertThat(jvm.path("memory").path("nonHeap").path("used").asLong()).isPositive();
        assertThat(jvm.path("memory").path("pools")).isNotEmpty();
        List<String> bufferPools = new ArrayList<>();
        jvm.path("memory").path("bufferPools").forEach(p -> bufferPools.add(p.path("name").asText()));
        assertThat(bufferPools).contains("direct", "mapped");
        assertThat(jvm.path("gc")).isNotEmpty();
        for (JsonNode gc : jvm.path("gc")) {
            assertThat(gc.path("name").asText()).isNotBlank();
            assertThat(gc.path("collectionCount").asLong()).isGreaterThanOrEqualTo(0);
            assertThat(gc.path("collectionTime").asLong()).isGreaterThanOrEqualTo(0);
        }
        assertThat(jvm.path("uptime").asLong()).isPositive();
        assertThat(jvm.path("classes").path("loaded").asInt()).isPositive();
        assertThat(jvm.path("runtime").path("version").asText()).isEqualTo(Runtime.version().toString());
        assertThat(jvm.path("cpu").path("availableProcessors").asInt()).isEqualTo(Runtime.getRuntime().availableProcessors());
    }

    @Test
    void threadsCountStatesAndShowTheRealExecutorPoolsIncludingLaterOnes() {
        AtomicReference<ModuleContext> context = new AtomicReference<>();
        start(new FakeModule("worker").servingDiagnostics().onStart(context::set), Map.of());
        ThreadPoolExecutor later = new ThreadPoolExecutor(1, 1, 1, TimeUnit.SECONDS, new ArrayBlockingQueue<>(1));
        try {
            CountDownLatch release = new CountDownLatch(1);
            context.get().executors().register("test-pool", later);
            later.execute(() -> await(release));
            later.execute(() -> { });
            assertThatThrownBy(() -> later.execute(() -> { })).isInstanceOf(RejectedExecutionException.class);
            JsonNode threads = internal(pod, "threads").path("threads");
            release.countDown();

            JsonNode summary = threads.path("summary");
            assertThat(summary.path("threadCount").asInt()).isPositive();
            assertThat(summary.path("peakThreadCount").asInt()).isGreaterThanOrEqualTo(summary.path("threadCount").asInt());
            assertThat(summary.path("daemonThreadCount").asInt()).isPositive();
            assertThat(summary.path("totalStartedThreadCount").asLong()).isPositive();
            int sum = 0;
            for (String state : List.of("NEW", "RUNNABLE", "WAITING", "TIMED_WAITING", "BLOCKED", "TERMINATED")) {
                assertThat(threads.path("states").has(state)).as(state).isTrue();
                sum += threads.path("states").path(state).asInt();
            }
            assertThat(sum).isPositive();
            JsonNode pools = threads.path("executorPools");
            for (String name : List.of("platform-async", "platform-maintenance", "test-pool")) {
                for (String field : List.of("poolSize", "activeCount", "queueSize", "rejectedTaskCount")) {
                    assertThat(pools.path(name).path(field).isNumber()).as(name + "." + field).isTrue();
                }
            }
            assertThat(pools.path("test-pool").path("activeCount").asInt()).isEqualTo(1);
            assertThat(pools.path("test-pool").path("queueSize").asInt()).isEqualTo(1);
            assertThat(pools.path("test-pool").path("rejectedTaskCount").asInt()).isEqualTo(1);
            assertThat(threads.path("deadlockedThreads").isArray()).isTrue();
        } finally {
            later.shutdownNow();
        }
    }

    @Test
    void threadDumpHasFullStacksOfATestThreadAndVirtualThreadsAndAnswersRawText() throws Exception {
        start(new FakeModule("worker").servingDiagnostics(), Map.of());
        CountDownLatch release = new CountDownLatch(1);
        Thread deep = new Thread(() -> recurse(20, release), "test-deep-thread");
        deep.start();
        Thread virtual = Thread.ofVirtual().name("test-virtual-thread").start(() -> await(release));
        try {
            waitUntil(() -> deep.getState() == Thread.State.TIMED_WAITING && virtual.getState() == Thread.State.TIMED_WAITING);
            String dump = internal(pod, "threaddump").path("threadDump").asText();
            String deepPart = section(dump, "\"test-deep-thread\"");
            assertThat(deepPart).contains("java.lang.Thread.State: TIMED_WAITING");
            assertThat(deepPart.split("DiagnosticsEndpointTest.recurse", -1).length - 1).isGreaterThanOrEqualTo(20);
            assertThat(deepPart).contains("- parking to wait for java.util.concurrent.CountDownLatch");
            assertThat(dump).contains("Virtual threads (").contains("\"test-virtual-thread\"");
            assertThat(section(dump, "\"test-virtual-thread\"")).contains("DiagnosticsEndpointTest.await");

            HttpResponse<String> text = call(pod, "threaddump?internal=true", "Accept", "text/plain");
            assertThat(text.statusCode()).isEqualTo(200);
            assertThat(text.headers().firstValue("content-type").orElse("")).startsWith("text/plain");
            assertThat(text.body()).contains("Full thread dump").contains("\"test-deep-thread\"");
        } finally {
            release.countDown();
            deep.join();
            virtual.join();
        }
    }

    @Test
    void aDeadlockShowsInThreadsThreadDumpAndHealth() throws Exception {
        start(new FakeModule("worker").servingDiagnostics(), Map.of());
        Deadlock deadlock = Deadlock.create("test-deadlock-a", "test-deadlock-b");
        try {
            JsonNode threads = internal(pod, "threads").path("threads");
            assertThat(threads.path("summary").path("deadlockedThreadCount").asInt()).isEqualTo(2);
            List<String> names = new ArrayList<>();
            threads.path("deadlockedThreads").forEach(t -> {
                names.add(t.path("name").asText());
                assertThat(t.path("lockName").asText()).contains("ReentrantLock");
                assertThat(t.path("lockOwnerName").asText()).startsWith("test-deadlock-");
            });
            assertThat(names).containsExactlyInAnyOrder("test-deadlock-a", "test-deadlock-b");

            String dump = internal(pod, "threaddump").path("threadDump").asText();
            assertThat(dump).contains("Found a Java-level deadlock of 2 threads")
                    .contains("which is held by \"test-deadlock-b\"").contains("which is held by \"test-deadlock-a\"");
            assertThat(section(dump, "\"test-deadlock-a\"")).contains("Locked ownable synchronizers:");

            JsonNode health = internal(pod, "health").path("health");
            assertThat(health.path("status").asText()).isEqualTo("DOWN");
            assertThat(health.path("checks").path("threads").path("deadlocks").asInt()).isEqualTo(2);
        } finally {
            deadlock.end();
        }
        JsonNode health = internal(pod, "health").path("health");
        assertThat(health.path("checks").path("threads").path("deadlocks").asInt()).isZero();
    }

    @Test
    void healthHasStatusSystemInformationChecksAndDiskSpace() {
        start(new FakeModule("worker").servingDiagnostics(), Map.of());
        JsonNode health = internal(pod, "health").path("health");
        assertThat(health.path("status").asText()).isEqualTo("UP");
        assertThat(health.path("uptime").asLong()).isPositive();
        assertThat(health.path("startTime").asText()).endsWith("Z");
        JsonNode system = health.path("system");
        for (String field : List.of("hostname", "os", "arch", "javaVersion")) {
            assertThat(system.path(field).asText()).as(field).isNotBlank();
        }
        assertThat(system.path("availableProcessors").asInt()).isPositive();
        assertThat(system.path("systemLoadAverage").isNumber()).isTrue();
        JsonNode checks = health.path("checks");
        assertThat(checks.path("memory").path("status").asText()).isEqualTo("UP");
        assertThat(checks.path("threads").path("deadlocks").asInt()).isZero();
        assertThat(checks.path("diskSpace").path("status").asText()).isEqualTo("UP");
        assertThat(checks.path("diskSpace").path("free").asLong()).isPositive();
        assertThat(checks.path("diskSpace").path("path").asText()).endsWith("dumps");
    }

    @Test
    void envMasksSecretLookingKeysValuesAndTheEnvironmentId() {
        System.setProperty("pylon.test.db-password", "hunter2-value");
        System.setProperty("pylon.test.command", "serve --id " + TestPods.ENVIRONMENT_ID + " --api-token tok-value");
        System.setProperty("pylon.test.url", "https://alice:wonderland@example.test/x");
        System.setProperty("pylon.test.customer", "customer-value");
        try {
            start(new FakeModule("worker").servingDiagnostics(), Map.of("pylon.diagnostics.env.mask-keys", "custom[a-z]+$"));
            HttpResponse<String> response = call(pod, "env?internal=true");
            assertThat(response.body()).doesNotContain("hunter2-value", "tok-value", "wonderland", "customer-value",
                    TestPods.ENVIRONMENT_ID);
            JsonNode properties = json(response).path("env").path("systemProperties");
            assertThat(properties.path("pylon.test.db-password").asText()).isEqualTo("******");
            assertThat(properties.path("pylon.test.command").asText()).isEqualTo("serve --id ****** --api-token ******");
            assertThat(properties.path("pylon.test.url").asText()).isEqualTo("https://******@example.test/x");
            assertThat(properties.path("pylon.test.customer").asText()).isEqualTo("******");
            assertThat(properties.path("java.version").asText()).isEqualTo(System.getProperty("java.version"));
            JsonNode environment = json(response).path("env").path("environment");
            assertThat(environment.path("PATH").asText()).isEqualTo(System.getenv("PATH"));
            assertThat(json(response).path("env").path("jvmArguments").isArray()).isTrue();
        } finally {
            System.clearProperty("pylon.test.db-password");
            System.clearProperty("pylon.test.command");
            System.clearProperty("pylon.test.url");
            System.clearProperty("pylon.test.customer");
        }
    }

    @Test
    void withoutInternalThePodAnswersTheBroadcastShapeForItselfAndPodNamesOne() {
        start(new FakeModule("worker").servingDiagnostics(), Map.of());
        JsonNode broadcast = json(call(pod, "jvm"));
        assertThat(broadcast.path("pods")).hasSize(1);
        assertThat(broadcast.path("pods").get(0).path("podName").asText()).isEqualTo("worker-0");
        assertThat(broadcast.path("pods").get(0).path("jvm").path("memory").path("heap").path("used").asLong()).isPositive();
        assertThat(broadcast.path("summary").path("succeeded").asInt()).isEqualTo(1);
        assertThat(broadcast.path("responseTime").isNumber()).isTrue();
        assertThat(json(call(pod, "threads?internal=false")).path("pods").get(0).has("threads")).isTrue();

        JsonNode named = json(call(pod, "health?pod=worker-0"));
        assertThat(named.path("podName").asText()).isEqualTo("worker-0");
        assertThat(named.has("health")).isTrue();
        HttpResponse<String> other = call(pod, "health?pod=worker-9");
        assertThat(other.statusCode()).isEqualTo(404);
        assertThat(json(other).path("error_description").asText()).contains("worker-9");
    }

    @Test
    void moduleSectionsJoinAllAndAliasesAnswerUnderTheirOwnKey() {
        DiagnosticSection grid = new DiagnosticSection() {
            @Override
            public String name() {
                return "datagrid";
            }

            @Override
            public Set<String> aliases() {
                return Set.of("hazelcast");
            }

            @Override
            public Object collect() {
                return Map.of("members", 1);
            }
        };
        start(new FakeModule("worker").servingDiagnostics().onStart(c -> c.diagnostics().register(grid)), Map.of());
        assertThat(internal(pod, "datagrid").path("datagrid").path("members").asInt()).isEqualTo(1);
        JsonNode alias = internal(pod, "hazelcast");
        assertThat(alias.path("hazelcast").path("members").asInt()).isEqualTo(1);
        assertThat(alias.has("datagrid")).isFalse();
        JsonNode all = internal(pod, "all");
        assertThat(all.path("datagrid").path("members").asInt()).isEqualTo(1);
        assertThat(all.has("hazelcast")).isFalse();
        assertThat(json(call(pod, "nope")).path("details").path("available").toString()).contains("datagrid", "hazelcast");
    }

    @Test
    void heavyCallsBeyondTheLimitGet429WithRetryAfterWhileLightOnesStillAnswer() throws Exception {
        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        DiagnosticSection blocking = new DiagnosticSection() {
            @Override
            public String name() {
                return "blocking";
            }

            @Override
            public Object collect() throws Exception {
                entered.countDown();
                release.await(30, TimeUnit.SECONDS);
                return Map.of("released", true);
            }
        };
        start(new FakeModule("worker").servingDiagnostics().onStart(c -> c.diagnostics().register(blocking)),
                Map.of("pylon.diagnostics.heavy-concurrency", "1"));
        HttpRequest request = HttpRequest.newBuilder(URI.create(TestPods.baseUrl(pod) + "/platform/diagnostics/all?internal=true"))
                .header("Authorization", TestPods.ENVIRONMENT_ID).build();
        CompletableFuture<HttpResponse<String>> first = TestPods.client().sendAsync(request, HttpResponse.BodyHandlers.ofString());
        try {
            assertThat(entered.await(10, TimeUnit.SECONDS)).isTrue();
            for (String name : List.of("all", "threaddump")) {
                HttpResponse<String> busy = call(pod, name + "?internal=true");
                assertThat(busy.statusCode()).as(name).isEqualTo(429);
                assertThat(busy.headers().firstValue("retry-after")).hasValue("2");
                assertThat(json(busy).path("error").asText()).isEqualTo("too_many_requests");
            }
            JsonNode broadcast = json(call(pod, "threaddump"));
            assertThat(broadcast.path("pods").get(0).path("error").path("status").asInt()).isEqualTo(429);
            assertThat(broadcast.path("summary").path("failed").asInt()).isEqualTo(1);
            assertThat(call(pod, "threads?internal=true").statusCode()).isEqualTo(200);
        } finally {
            release.countDown();
        }
        assertThat(first.get(30, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
        assertThat(call(pod, "threaddump?internal=true").statusCode()).isEqualTo(200);
    }

    private static void recurse(int depth, CountDownLatch release) {
        if (depth == 0) {
            await(release);
        } else {
            recurse(depth - 1, release);
        }
    }

    static void await(CountDownLatch latch) {
        try {
            latch.await(60, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The part of a dump from a thread's header line to the next thread or section. */
    static String section(String dump, String header) {
        int start = dump.indexOf(header);
        assertThat(start).as(header + " in the dump").isGreaterThanOrEqualTo(0);
        java.util.regex.Matcher next = java.util.regex.Pattern.compile("\n\n(\"|Found a|Virtual threads)").matcher(dump);
        int end = next.find(start + header.length()) ? next.start() : -1;
        return dump.substring(start, end < 0 ? dump.length() : end);
    }

    static void waitUntil(java.util.function.BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("condition not met within 10 s");
            }
            Thread.sleep(10);
        }
    }
}
