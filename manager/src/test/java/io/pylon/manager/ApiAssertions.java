package io.pylon.manager;

import java.net.http.HttpResponse;

import static io.pylon.manager.ManagerClient.json;
import static org.assertj.core.api.Assertions.assertThat;

/** What the management API's refusals look like, checked the same way in every test. */
public final class ApiAssertions {
    private ApiAssertions() {
    }

    public static void assertError(HttpResponse<String> response, int status, String error) {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(status);
        assertThat(response.headers().firstValue("Content-Type")).hasValue("application/json");
        assertThat(json(response).get("error").asText()).isEqualTo(error);
        assertThat(json(response).get("error_description").asText()).isNotBlank();
    }

    /**
     * A refused sign-in with credentials in the form body: no {@code WWW-Authenticate} (RFC 6749 5.2 asks for it only
     * when the client used the Authorization header; a browser would raise its own login prompt).
     */
    public static void assertBadCredentials(HttpResponse<String> response) {
        assertError(response, 401, "unauthorized_client");
        assertThat(json(response).get("error_description").asText()).isEqualTo("Bad credentials");
        assertThat(response.headers().firstValue("WWW-Authenticate")).isEmpty();
        assertThat(response.headers().firstValue("Cache-Control")).hasValue("no-store");
    }

    /** A refused sign-in with HTTP Basic credentials: the Basic challenge names the realm. */
    public static void assertBadBasicCredentials(HttpResponse<String> response) {
        assertError(response, 401, "unauthorized_client");
        assertThat(json(response).get("error_description").asText()).isEqualTo("Bad credentials");
        assertThat(response.headers().firstValue("WWW-Authenticate")).hasValue("Basic realm=\"pylon\"");
        assertThat(response.headers().firstValue("Cache-Control")).hasValue("no-store");
    }

    public static void assertInvalidToken(HttpResponse<String> response) {
        assertError(response, 401, "invalid_token");
        assertThat(response.headers().firstValue("WWW-Authenticate")).hasValueSatisfying(
                v -> assertThat(v).startsWith("Bearer realm=\"pylon\", error=\"invalid_token\""));
    }

    public static void assertBadRequest(HttpResponse<String> response, String mentions) {
        assertError(response, 400, "invalid_request");
        assertThat(json(response).get("error_description").asText()).contains(mentions);
    }
}
