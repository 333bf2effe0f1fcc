package io.pylon.manager.console;

import io.pylon.core.server.Pod;
import io.pylon.core.testing.FakeModule;
import io.pylon.core.testing.TestPods;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A Manager whose environment {@code test} points at one real pod serving diagnostics (its data directory of its own),
 * with an admin token and a viewer account and token: the set-up of the console tests that call diagnostics.
 */
final class ConsoleOverDiagnosticsPod implements AutoCloseable {
    static final String VIEWER_PASSWORD = "viewer-Passw0rd!";

    final Pod worker;
    final ManagerUnderTest manager;
    final String admin;
    final String viewer;
    final Path workerData;

    private ConsoleOverDiagnosticsPod(Path workerData, Pod worker, ManagerUnderTest manager, String admin,
            String viewer) {
        this.workerData = workerData;
        this.worker = worker;
        this.manager = manager;
        this.admin = admin;
        this.viewer = viewer;
    }

    /** Starts pod {@code podName} with {@code podSettings} and a Manager, and creates viewer {@code viewerName}. */
    static ConsoleOverDiagnosticsPod start(String podName, Map<String, String> podSettings, String viewerName)
            throws IOException {
        Path data = Files.createTempDirectory("pylon-" + podName);
        Map<String, String> settings = new HashMap<>(podSettings);
        settings.put("pylon.data.dir", data.toString());
        Pod worker = TestPods.start(new FakeModule("worker").servingDiagnostics(), podName, settings);
        String url = TestPods.baseUrl(worker);
        ManagerUnderTest manager = new ManagerUnderTest(Map.of("pylon.manager.bootstrap.environment-urls",
                "worker=" + url + ",cache=" + url));
        String admin = manager.token("admin", ManagerUnderTest.ADMIN_PASSWORD);
        assertThat(manager.send("POST", "/apiops/users", admin, "{\"username\":\"" + viewerName
                + "\",\"password\":\"" + VIEWER_PASSWORD + "\",\"role\":\"viewer\"}").statusCode()).isEqualTo(201);
        return new ConsoleOverDiagnosticsPod(data, worker, manager, admin,
                manager.token(viewerName, VIEWER_PASSWORD));
    }

    @Override
    public void close() {
        manager.close();
        worker.stop();
        TestPods.deleteTree(workerData);
    }
}
