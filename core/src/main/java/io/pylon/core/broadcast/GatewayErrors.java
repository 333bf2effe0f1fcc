package io.pylon.core.broadcast;

import io.helidon.http.Status;
import io.helidon.webserver.http.ServerResponse;
import io.pylon.core.http.ErrorBody;

/** Error answers of this pod when it stands between a caller and another pod. */
final class GatewayErrors {
    private GatewayErrors() {
    }

    static void send(ServerResponse res, int status, String description) {
        String error = switch (status) {
            case 404 -> "not_found";
            case 503 -> "service_unavailable";
            case 504 -> "gateway_timeout";
            default -> "bad_gateway";
        };
        ErrorBody.send(res, Status.create(status), error, description);
    }
}
