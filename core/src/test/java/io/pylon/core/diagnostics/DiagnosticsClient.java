package io.pylon.core.diagnostics;

import com.fasterxml.jackson.databind.JsonNode;
import io.pylon.core.http.Json;
import io.pylon.core.server.Pod;
import io.pylon.core.testing.TestPods;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpResponse;

/** Authorised diagnostics calls against a test pod. */
final class DiagnosticsClient {
    private DiagnosticsClient() {
    }

    static HttpResponse<String> call(Pod pod, String nameAndQuery, String... headers) {
        String[] all = new String[headers.length + 2];
        all[0] = "Authorization";
        all[1] = TestPods.ENVIRONMENT_ID;
        System.arraycopy(headers, 0, all, 2, headers.length);
        return TestPods.get(pod, "/platform/diagnostics/" + nameAndQuery, all);
    }

    /** The single-pod object of a name, asserting nothing but that it is JSON. */
    static JsonNode internal(Pod pod, String name) {
        HttpResponse<String> response = call(pod, name + "?internal=true");
        if (response.statusCode() != 200) {
            throw new AssertionError(name + " answered " + response.statusCode() + ": " + response.body());
        }
        return json(response);
    }

    static JsonNode json(HttpResponse<String> response) {
        try {
            return Json.MAPPER.readTree(response.body());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
