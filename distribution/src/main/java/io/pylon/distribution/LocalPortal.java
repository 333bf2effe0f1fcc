package io.pylon.distribution;

import com.fasterxml.jackson.databind.JsonNode;
import io.pylon.core.http.Json;

import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.time.Duration;

/**
 * {@code pylon up}'s Portal, made usable from the first minute through the Manager's API, as an admin would: the
 * Portal pod's own account (role {@code portal}, its password in {@code .pylon/portal-password}), the sample API with
 * keys ({@link KeyedSampleProxy}) published with automatic approval of subscriptions, and a developer account approved
 * for signing in to the Portal. Other developers who sign up wait for an admin's approval in the Manager UI unless
 * {@code pylon.manager.portal.auto-approve-developers} is true.
 */
final class LocalPortal {
    private LocalPortal() {
    }

    /** @return a sentence saying what is ready, or why not */
    static String ensure(String managerUrl, LocalEnvironment environment) {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        try {
            String admin = SampleProxy.token(http, managerUrl, environment.adminUsername(), environment.adminPassword());
            String account = "{\"username\":\"" + LocalEnvironment.PORTAL_ACCOUNT + "\",\"password\":\""
                    + environment.portalPassword() + "\",\"role\":\"portal\"}";
            HttpResponse<String> created = SampleProxy.send(http, managerUrl, "POST", "/apiops/users", admin, account);
            if (created.statusCode() == 409) { // kept from an earlier start: its password is the one in .pylon
                SampleProxy.expect(SampleProxy.send(http, managerUrl, "POST", "/apiops/users/"
                        + LocalEnvironment.PORTAL_ACCOUNT + "/password", admin, "{\"password\":\""
                        + environment.portalPassword() + "\"}"), 204);
            } else {
                SampleProxy.expect(created, 201);
            }
            SampleProxy.expect(SampleProxy.send(http, managerUrl, "PUT", "/apiops/publications/" + KeyedSampleProxy.NAME,
                    admin, "{\"autoApprove\":true}"), 200);
            String portal = SampleProxy.token(http, managerUrl, LocalEnvironment.PORTAL_ACCOUNT,
                    environment.portalPassword());
            SampleProxy.expect(SampleProxy.send(http, managerUrl, "POST", "/apiops/portal/developers", portal,
                    "{\"email\":\"" + LocalEnvironment.DEVELOPER + "\",\"password\":\""
                            + environment.developerPassword() + "\"}"), 202);
            JsonNode pending = Json.MAPPER.readTree(SampleProxy.send(http, managerUrl, "GET",
                    "/apiops/developers?status=pending", admin, null).body()).path("developers");
            for (JsonNode developer : pending) {
                if (developer.path("email").asText().equals(LocalEnvironment.DEVELOPER)) {
                    SampleProxy.expect(SampleProxy.send(http, managerUrl, "POST", "/apiops/developers/"
                            + developer.path("id").asText() + "/approve", admin, null), 200);
                }
            }
            return "Portal ready: its Manager account '" + LocalEnvironment.PORTAL_ACCOUNT + "', the sample API "
                    + "with keys '" + KeyedSampleProxy.NAME + "' published, developer " + LocalEnvironment.DEVELOPER + " approved";
        } catch (IOException | IllegalStateException e) {
            return "the Portal was not set up: " + e.getMessage();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "the Portal was not set up: interrupted";
        }
    }
}
