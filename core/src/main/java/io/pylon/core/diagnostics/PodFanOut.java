package io.pylon.core.diagnostics;

import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;

/**
 * How a diagnostics call without {@code internal=true} is answered: by this pod alone ({@link SelfOnlyFanOut}) or by
 * asking every pod of the module. Also answers every call that names one pod with {@code pod=<name>}, heap dumps
 * included. The caller is already authorised and {@code name} is one that {@code local} offers.
 */
public interface PodFanOut {

    void answer(String name, ServerRequest req, ServerResponse res, LocalDiagnostics local) throws Exception;
}
