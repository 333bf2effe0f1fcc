package io.pylon.distribution.e2e;

import io.pylon.core.server.Pod;
import io.pylon.core.testing.TestPods;

import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

/** Accounts of a real Manager for the browser tests: a token for a user, and users of a role. */
final class ManagerAccounts {
    private ManagerAccounts() {
    }

    /** A management token of the user (the token endpoint's client credentials grant); fails the test otherwise. */
    static String token(Pod manager, String username, String password) {
        HttpResponse<String> response = TestPods.send(HttpRequest.newBuilder(URI.create(TestPods.baseUrl(manager) + "/apiops/auth/token"))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString("grant_type=client_credentials&client_id=" + username
                        + "&client_secret=" + URLEncoder.encode(password, StandardCharsets.UTF_8))).build());
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        String body = response.body();
        int at = body.indexOf("\"access_token\":\"") + 16;
        return body.substring(at, body.indexOf('"', at));
    }

    /** Creates a user of the role, as the admin whose token is given. */
    static void create(Pod manager, String adminToken, String username, String role, String password) {
        HttpResponse<String> created = TestPods.send(HttpRequest.newBuilder(URI.create(TestPods.baseUrl(manager) + "/apiops/users"))
                .header("Authorization", "Bearer " + adminToken).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"username\":\"" + username + "\",\"role\":\"" + role
                        + "\",\"password\":\"" + password + "\"}")).build());
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
    }
}
