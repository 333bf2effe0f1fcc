package io.pylon.core.diagnostics;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.helidon.http.Status;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import io.pylon.core.http.ErrorBody;
import io.pylon.core.http.Json;

import java.util.Optional;

/**
 * The broadcast shape answered by this pod alone, for a pod that knows no other pods of its module:
 * {@code {"pods":[<this pod>],"summary":{...},"responseTime":..}}. With {@code pod=<name>} it answers this pod's
 * single-pod object (or its heap dump) when the name is its own, 404 otherwise.
 */
public final class SelfOnlyFanOut implements PodFanOut {

    @Override
    public void answer(String name, ServerRequest req, ServerResponse res, LocalDiagnostics local) throws Exception {
        long t0 = System.nanoTime();
        Optional<String> pod = req.query().first("pod").asOptional();
        if (pod.isPresent()) {
            if (!pod.get().equals(local.identity().podName())) {
                ErrorBody.send(res, Status.NOT_FOUND_404, "not_found", "No pod named '" + pod.get()
                        + "' in this module; pods: [" + local.identity().podName() + "].");
                return;
            }
            if (LocalDiagnostics.HEAPDUMP.equals(name)) {
                local.sendHeapDump(req, res);
            } else {
                DiagnosticsResponses.sendLocal(name, req, res, local);
            }
            return;
        }
        if (LocalDiagnostics.HEAPDUMP.equals(name)) {
            local.sendHeapDump(req, res);
            return;
        }
        ObjectNode body = Json.MAPPER.createObjectNode();
        ArrayNode pods = body.putArray("pods");
        int failed = 0;
        try {
            pods.add(local.answer(name));
        } catch (DiagnosticsBusyException e) {
            pods.add(DiagnosticsResponses.failedPod(local, 429, e.getMessage()));
            failed++;
        } catch (SectionFailedException e) {
            pods.add(DiagnosticsResponses.failedPod(local, 500, e.getMessage()));
            failed++;
        }
        body.putObject("summary").put("total", 1).put("succeeded", 1 - failed).put("failed", failed);
        body.put("responseTime", Math.round((System.nanoTime() - t0) / 1_000.0) / 1_000.0);
        Json.send(res, body);
    }
}
