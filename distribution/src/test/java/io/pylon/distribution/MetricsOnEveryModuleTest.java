package io.pylon.distribution;

import io.pylon.core.server.Pod;
import io.pylon.core.testing.Promtool;
import io.pylon.core.testing.TestPods;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.net.http.HttpResponse;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code GET /platform/management/metrics} on a real pod of every module: valid exposition by {@code promtool check
 * metrics} (its lint included) in both formats, with the module's own meters, and no secret of the pod's settings.
 */
class MetricsOnEveryModuleTest extends OnePodPerModule {
    private static final String DB_PASSWORD = "metrics-db-Secret-4711";

    @Override
    String podSuffix() {
        return "metrics";
    }

    @Override
    Map<String, String> settings() {
        return Map.of("pylon.manager.admin.password", DB_PASSWORD);
    }

    @ParameterizedTest
    @MethodSource("modules")
    void validExpositionInBothFormats(String module) {
        Pod pod = pods.get(module);
        TestPods.get(pod, "/platform/management/health");
        HttpResponse<String> text = TestPods.get(pod, "/platform/management/metrics");
        assertThat(text.statusCode()).isEqualTo(200);
        Promtool.Result check = Promtool.run(text.body(), "check", "metrics");
        assertThat(check.exitCode()).as(module + ": " + check.output()).isZero();
        assertThat(text.body()).contains("pylon_build_info{commit=").contains("module=\"" + module + "\"")
                .contains("http_server_requests_seconds_count{method=\"GET\",route=\"/platform/management/health\"")
                .doesNotContain(DB_PASSWORD).doesNotContain(TestPods.ENVIRONMENT_ID);

        HttpResponse<String> open = TestPods.get(pod, "/platform/management/metrics",
                "Accept", "application/openmetrics-text;version=1.0.0");
        assertThat(open.headers().firstValue("Content-Type").orElse("")).startsWith("application/openmetrics-text");
        assertThat(open.body()).endsWith("# EOF\n");
    }

    @ParameterizedTest
    @MethodSource("modules")
    void moduleMetersArePresent(String module) {
        String body = TestPods.get(pods.get(module), "/platform/management/metrics").body();
        switch (module) {
            case "worker" -> assertThat(body).contains("pylon_worker_gateway_errors_total{cause=\"unreachable\"}",
                    "pylon_worker_routes_loads_total", "pylon_worker_routes ", "pylon_broadcast_pods_asked_total");
            case "cache" -> assertThat(body).contains("pylon_grid_members ", "pylon_grid_partitions_owned ",
                    "pylon_grid_cluster_safe ", "pylon_grid_map_entries{map=\"pylon-counters\"}",
                    "pylon_grid_map_get_seconds_count{map=\"pylon-responses\"}", "pylon_broadcast_pods_failed_total");
            case "manager" -> assertThat(body).contains("pylon_manager_tokens_issued_total",
                    "pylon_manager_signin_failures_total{reason=\"bad-password\"}", "pylon_manager_account_locks_total",
                    "pylon_executor_queued_tasks{executor=\"manager-argon2\"}", "hikaricp_connections_active{pool=\"manager-db\"}");
            default -> assertThat(body).contains("pylon_executor_active_threads");
        }
    }
}
