package io.pylon.distribution;

import org.jspecify.annotations.Nullable;

import com.fasterxml.jackson.databind.JsonNode;
import io.pylon.core.http.Json;
import io.pylon.core.http.WholeAnswer;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * {@code pylon up}'s sample API proxy: {@code /sample} to the {@link SampleUpstream}, created (or brought up to date)
 * and deployed to the local environment through the Manager's API, as an operator would, so that a call through
 * every Worker pod works from the first minute; deployed together with its keyed twin for the Portal,
 * {@link KeyedSampleProxy}.
 */
final class SampleProxy {
    static final String NAME = "sample";
    static final String PREFIX = "/sample";

    private SampleProxy() {
    }

    /** @return the deployment's answer, or a sentence saying why the sample is not deployed */
    static String ensure(String managerUrl, LocalEnvironment environment, String upstreamUrl) {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        try {
            String token = token(http, managerUrl, environment.adminUsername(), environment.adminPassword());
            String definition = "{\"name\":\"" + NAME + "\",\"description\":\"The sample API of pylon up\","
                    + "\"pathPrefix\":\"" + PREFIX + "\",\"stripPrefix\":true,\"upstreams\":[\"" + upstreamUrl + "\"]}";
            HttpResponse<String> current = send(http, managerUrl, "GET", "/apiops/proxies/" + NAME, token, null);
            if (current.statusCode() == 404) {
                expect(send(http, managerUrl, "POST", "/apiops/proxies?comment=pylon%20up", token, definition), 201);
            } else {
                JsonNode stored = Json.MAPPER.readTree(current.body()).path("definition");
                if (!stored.equals(io.pylon.gateway.model.CanonicalJson.sorted(Json.MAPPER.readTree(definition)))) {
                    expect(send(http, managerUrl, "PUT", "/apiops/proxies/" + NAME + "?comment=pylon%20up", token,
                            definition), 200);
                }
            }
            KeyedSampleProxy.ensure(http, managerUrl, token, upstreamUrl);
            HttpResponse<String> deployed = send(http, managerUrl, "POST", "/apiops/environments/"
                    + environment.name() + "/deployments", token, "{\"proxies\":[\"" + NAME + "\",\""
                    + KeyedSampleProxy.NAME + "\"],\"comment\":\"pylon up\",\"wait\":\"20s\"}");
            expect(deployed, 201);
            JsonNode result = Json.MAPPER.readTree(deployed.body());
            return "sample API deployed as version " + result.path("version").asLong() + " (applied by every Worker: "
                    + result.path("deploymentResult").path("success").asBoolean() + ")";
        } catch (IOException | IllegalStateException e) {
            return "the sample API was not deployed: " + e.getMessage();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "the sample API was not deployed: interrupted";
        }
    }

    /** A management API token for the account. */
    static String token(HttpClient http, String managerUrl, String username, String password)
            throws IOException, InterruptedException {
        HttpResponse<String> response = WholeAnswer.send(http, HttpRequest.newBuilder(URI.create(managerUrl + "/apiops/auth/token"))
                .timeout(Duration.ofSeconds(30))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString("grant_type=client_credentials&client_id="
                        + URLEncoder.encode(username, StandardCharsets.UTF_8) + "&client_secret="
                        + URLEncoder.encode(password, StandardCharsets.UTF_8)))
                .build(), HttpResponse.BodyHandlers.ofString());
        expect(response, 200);
        return Json.MAPPER.readTree(response.body()).path("access_token").asText();
    }

    static HttpResponse<String> send(HttpClient http, String managerUrl, String method, String path,
                                     String token, @Nullable String json) throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(managerUrl + path))
                .timeout(Duration.ofSeconds(60)).header("Authorization", "Bearer " + token)
                .method(method, json == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(json));
        if (json != null) {
            request.header("Content-Type", "application/json");
        }
        return WholeAnswer.send(http, request.build(), HttpResponse.BodyHandlers.ofString());
    }

    static void expect(HttpResponse<String> response, int status) {
        if (response.statusCode() != status) {
            throw new IllegalStateException(response.request().method() + " " + response.request().uri().getPath()
                    + " answered " + response.statusCode() + ": " + response.body());
        }
    }
}
