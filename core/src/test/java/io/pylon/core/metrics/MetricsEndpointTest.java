package io.pylon.core.metrics;

import io.pylon.core.server.Pod;
import io.pylon.core.testing.FakeModule;
import io.pylon.core.testing.Promtool;
import io.pylon.core.testing.TestPods;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.http.HttpResponse;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The metrics endpoint of a real pod: formats, the core meters, bounded labels, validity by promtool. */
class MetricsEndpointTest {
    private static Pod pod;

    @BeforeAll
    static void start() {
        pod = TestPods.start(new FakeModule("fake"), "fake-metrics", Map.of());
    }

    @AfterAll
    static void stop() {
        pod.close();
    }

    @Test
    void prometheusTextByDefaultWithTheCoreMeters() {
        for (int i = 0; i < 3; i++) {
            assertThat(TestPods.get(pod, "/platform/management/version").statusCode()).isEqualTo(200);
        }
        System.gc(); // a fresh JVM may not have paused for GC yet; the pause meter appears with the first one
        HttpResponse<String> res = TestPods.get(pod, "/platform/management/metrics");
        for (int i = 0; i < 50 && !res.body().contains("jvm_gc_pause_seconds_count"); i++) {
            sleep(100); // the GC notification arrives on its own thread
            res = TestPods.get(pod, "/platform/management/metrics");
        }
        assertThat(res.statusCode()).isEqualTo(200);
        assertThat(res.headers().firstValue("Content-Type")).hasValue(MetricsEndpoint.PROMETHEUS_TEXT);
        String body = res.body();
        assertThat(body)
                .containsPattern("(?m)^pylon_build_info\\{commit=\"[^\"]+\",module=\"fake\",version=\"[^\"]+\"} 1")
                .contains("http_server_requests_seconds_count{method=\"GET\",route=\"/platform/management/version\","
                        + "status=\"2xx\"} 3")
                .contains("route=\"/platform/management/version\",status=\"2xx\",le=\"0.005\"}")
                .contains("http_server_connections_open ")
                .contains("jvm_memory_used_bytes{area=\"heap\"")
                .contains("jvm_gc_live_data_size_bytes", "jvm_memory_usage_after_gc{area=\"heap\"", "jvm_gc_pause_seconds_count")
                .contains("jvm_threads_states_threads{state=\"runnable\"}", "jvm_threads_deadlocked_threads ")
                .contains("process_cpu_usage ", "process_cpu_seconds_total ", "process_files_open_files ", "process_uptime_seconds ")
                .contains("pylon_health_check_status{check=\"memory\"} 1.0", "pylon_health_check_status{check=\"threads\"} 1.0")
                .contains("pylon_health_check_duration_seconds{check=\"memory\"}")
                .contains("pylon_health_probe_status{probe=\"readiness\"} 1.0")
                .contains("pylon_executor_active_threads{executor=\"platform-async\"}")
                .contains("pylon_executor_queued_tasks{executor=\"platform-async\"}")
                .contains("pylon_executor_rejected_tasks_total{executor=\"platform-maintenance\"}");
        Promtool.Result check = Promtool.run(body, "check", "metrics");
        assertThat(check.exitCode()).as(check.output()).isZero();
    }

    @Test
    void openMetricsWhenTheScraperAsksForIt() {
        HttpResponse<String> res = TestPods.get(pod, "/platform/management/metrics",
                "Accept", "application/openmetrics-text;version=1.0.0;q=0.5,text/plain;version=0.0.4;q=0.3,*/*;q=0.1");
        assertThat(res.statusCode()).isEqualTo(200);
        assertThat(res.headers().firstValue("Content-Type")).hasValue(MetricsEndpoint.OPENMETRICS);
        assertThat(res.body()).contains("# TYPE pylon_build info").endsWith("# EOF\n");
    }

    @Test
    void requestPathsNeverBecomeLabels() {
        assertThat(TestPods.get(pod, "/no/such/path-with-user-data-4711?token=s3cr3t").statusCode()).isEqualTo(404);
        assertThat(TestPods.get(pod, "/platform/management/metrics?x=1").statusCode()).isEqualTo(200);
        String body = TestPods.get(pod, "/platform/management/metrics").body();
        assertThat(body).doesNotContain("path-with-user-data-4711").doesNotContain("s3cr3t")
                .contains("route=\"unmatched\",status=\"4xx\"");
    }

    @Test
    void disabledMetricsAnswer404AndRecordNothing() {
        Pod off = TestPods.start(new FakeModule("fake"), "fake-nometrics", Map.of("pylon.metrics.enabled", "false"));
        try {
            HttpResponse<String> res = TestPods.get(off, "/platform/management/metrics");
            assertThat(res.statusCode()).isEqualTo(404);
            assertThat(res.body()).contains("\"error\"");
            assertThat(TestPods.get(off, "/platform/management/health").statusCode()).isEqualTo(200);
        } finally {
            off.close();
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
