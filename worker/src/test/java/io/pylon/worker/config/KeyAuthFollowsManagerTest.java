package io.pylon.worker.config;

import com.fasterxml.jackson.databind.JsonNode;
import io.pylon.core.server.Pod;
import io.pylon.core.testing.TestPods;
import io.pylon.worker.testing.TestUpstream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;

import static io.pylon.worker.config.ControlPlane.json;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The developer portal's keys enforced end to end on real pods: a real Manager (the Portal's calls made with a
 * {@code portal} credential), two real Workers following it, a real upstream. A developer signs up, creates an
 * application, subscribes to a published proxy with {@code keyAuth}, gets a key; both Workers accept it; suspension
 * and revocation stop it on both within 3 s; another developer cannot touch the first one's application; a change
 * without the session's CSRF token is refused.
 */
class KeyAuthFollowsManagerTest {
    private static final Duration PROPAGATION = Duration.ofSeconds(3);
    static ControlPlane cp;
    static TestUpstream upstream;
    static Pod one;
    static Pod two;
    static String portal;

    @BeforeAll
    static void start() throws Exception {
        cp = new ControlPlane(Map.of("pylon.manager.portal.auto-approve-developers", "true"));
        upstream = TestUpstream.echo("orders");
        one = ControlPlane.worker("gw-key-one", cp.url(), Map.of());
        two = ControlPlane.worker("gw-key-two", cp.url(), Map.of());
        HttpResponse<String> user = cp.post("/apiops/users",
                "{\"username\":\"portal\",\"password\":\"portal-Passw0rd-1\",\"role\":\"portal\"}");
        assertThat(user.statusCode()).as(user.body()).isEqualTo(201);
        portal = cp.token("portal", "portal-Passw0rd-1");
    }

    @AfterAll
    static void stop() throws Exception {
        upstream.close();
        one.stop();
        two.stop();
        cp.close();
    }

    private static HttpResponse<String> asPortal(String method, String path, String body, String... headers) {
        return cp.send(method, path, portal, body == null ? null : "application/json", body, headers);
    }

    private record Session(String token, String csrf) {
        String[] headers() {
            return new String[]{"X-Pylon-Developer-Session", token, "X-Pylon-Csrf", csrf};
        }
    }

    private static Session developer(String email) {
        String credentials = "{\"email\":\"" + email + "\",\"password\":\"dev-Passw0rd-123\"}";
        HttpResponse<String> signUp = asPortal("POST", "/apiops/portal/developers", credentials);
        assertThat(signUp.statusCode()).as(signUp.body()).isEqualTo(202);
        HttpResponse<String> signIn = asPortal("POST", "/apiops/portal/sessions", credentials);
        assertThat(signIn.statusCode()).as(signIn.body()).isEqualTo(201);
        JsonNode session = json(signIn.body());
        return new Session(session.path("session").asText(), session.path("csrf").asText());
    }

    private static String call(Pod worker, String key) {
        HttpResponse<String> response = key == null ? TestPods.get(worker, "/orders/1")
                : TestPods.get(worker, "/orders/1", "X-API-Key", key);
        return response.statusCode() + " " + json(response.body().startsWith("{") ? response.body()
                : "{\"error\":\"upstream\"}").path("error").asText();
    }

    private static void within(Duration limit, String expected, String key) throws InterruptedException {
        long start = System.nanoTime();
        ControlPlane.await(expected + " on both Workers", () -> call(one, key).equals(expected)
                && call(two, key).equals(expected));
        assertThat(Duration.ofNanos(System.nanoTime() - start)).as(expected).isLessThan(limit);
    }

    @Test
    void keysIssuedSuspendedAndRevokedReachEveryWorker() throws Exception {
        String definition = "{\"name\":\"orders\",\"pathPrefix\":\"/orders\",\"description\":\"Orders\","
                + "\"upstreams\":[\"" + upstream.url() + "\"],\"keyAuth\":{}}";
        assertThat(cp.post("/apiops/proxies", definition).statusCode()).isEqualTo(201);
        HttpResponse<String> deployed = cp.post("/apiops/environments/test/deployments",
                "{\"proxies\":[\"orders\"],\"wait\":\"20s\"}");
        assertThat(json(deployed.body()).path("deploymentResult").path("success").asBoolean()).as(deployed.body())
                .isTrue();
        assertThat(cp.send("PUT", "/apiops/publications/orders", cp.admin, "application/json",
                "{\"autoApprove\":true}").statusCode()).isEqualTo(200);

        // the catalog lists it for the Portal's environment
        JsonNode catalog = json(asPortal("GET", "/apiops/portal/catalog?environment=test", null).body());
        assertThat(catalog.path("apis").get(0).path("name").asText()).isEqualTo("orders");

        Session alice = developer("alice@example.com");
        JsonNode app = json(asPortal("POST", "/apiops/portal/applications", "{\"name\":\"shop\"}",
                alice.headers()).body());
        String appId = app.path("id").asText();
        HttpResponse<String> subscribed = asPortal("POST", "/apiops/portal/applications/" + appId + "/subscriptions",
                "{\"proxy\":\"orders\"}", alice.headers());
        assertThat(subscribed.statusCode()).as(subscribed.body()).isEqualTo(201);
        assertThat(json(subscribed.body()).path("status").asText()).isEqualTo("active");
        HttpResponse<String> issued = asPortal("POST", "/apiops/portal/applications/" + appId + "/keys", null,
                alice.headers());
        assertThat(issued.statusCode()).as(issued.body()).isEqualTo(201);
        String key = json(issued.body()).path("key").asText();
        String keyId = json(issued.body()).path("id").asText();
        assertThat(key).startsWith("pylon_key_").hasSizeGreaterThan(40);
        // the key is shown once: listing the application gives its prefix only
        String listed = asPortal("GET", "/apiops/portal/applications", null, alice.headers()).body();
        assertThat(listed).doesNotContain(key).contains(key.substring(0, 14));

        within(PROPAGATION, "200 upstream", key);
        HttpResponse<String> served = TestPods.get(one, "/orders/1", "X-API-Key", key, "X-Pylon-Application",
                "app-forged");
        assertThat(served.body()).isEqualTo("orders GET /orders/1");
        assertThat(served.headers().firstValue("x-seen-x-api-key")).as("the key is not sent upstream").isEmpty();
        assertThat(served.headers().allValues("x-seen-x-pylon-application")).as("the caller, named by the gateway")
                .containsExactly(appId);
        assertThat(call(one, null)).isEqualTo("401 unauthorized");
        assertThat(call(two, "pylon_key_not-a-key")).isEqualTo("401 invalid_api_key");

        // an admin suspends the subscription, then approves it again
        String subscriptionId = json(subscribed.body()).path("id").asText();
        assertThat(cp.post("/apiops/subscriptions/" + subscriptionId + "/suspend", "").statusCode()).isEqualTo(200);
        within(PROPAGATION, "403 subscription_suspended", key);
        assertThat(cp.post("/apiops/subscriptions/" + subscriptionId + "/approve", "").statusCode()).isEqualTo(200);
        within(PROPAGATION, "200 upstream", key);

        // another developer: their own application's key has no subscription; alice's application is not theirs
        Session mallory = developer("mallory@example.com");
        String malloryApp = json(asPortal("POST", "/apiops/portal/applications", "{\"name\":\"x\"}",
                mallory.headers()).body()).path("id").asText();
        String malloryKey = json(asPortal("POST", "/apiops/portal/applications/" + malloryApp + "/keys", null,
                mallory.headers()).body()).path("key").asText();
        within(PROPAGATION, "403 not_subscribed", malloryKey);
        assertThat(asPortal("DELETE", "/apiops/portal/applications/" + appId + "/keys/" + keyId, null,
                mallory.headers()).statusCode()).isEqualTo(404);
        assertThat(asPortal("POST", "/apiops/portal/applications/" + appId + "/keys", null,
                mallory.headers()).statusCode()).isEqualTo(404);
        assertThat(asPortal("GET", "/apiops/portal/applications", null, mallory.headers()).body())
                .doesNotContain(appId);
        // a change without the session's CSRF token is refused
        HttpResponse<String> noCsrf = asPortal("DELETE", "/apiops/portal/applications/" + appId + "/keys/" + keyId,
                null, "X-Pylon-Developer-Session", alice.token());
        assertThat(noCsrf.statusCode()).isEqualTo(403);
        assertThat(json(noCsrf.body()).path("error").asText()).isEqualTo("csrf_refused");
        within(PROPAGATION, "200 upstream", key);

        // alice revokes the key: 401 on both Workers within 3 s
        HttpResponse<String> revoked = asPortal("DELETE", "/apiops/portal/applications/" + appId + "/keys/" + keyId,
                null, alice.headers());
        assertThat(revoked.statusCode()).as(revoked.body()).isEqualTo(204);
        within(PROPAGATION, "401 invalid_api_key", key);
    }

    @Test
    void thePortalCredentialDoesOnlyPortalWork() {
        assertThat(cp.send("GET", "/apiops/proxies", portal, null, null).statusCode()).isEqualTo(403);
        assertThat(cp.send("GET", "/apiops/portal/applications", cp.admin, null, null).statusCode()).isEqualTo(403);
        assertThat(asPortal("GET", "/apiops/portal/applications", null).statusCode()).isEqualTo(401);
        // malformed and oversized sign-ups
        assertThat(asPortal("POST", "/apiops/portal/developers", "{\"email\":").statusCode()).isEqualTo(400);
        assertThat(asPortal("POST", "/apiops/portal/developers", "{\"email\":\"x@example.com\",\"password\":\""
                + "p".repeat(2000) + "\"}").statusCode()).isEqualTo(400);
        assertThat(asPortal("POST", "/apiops/portal/developers", "{\"email\":\"" + "a".repeat(40_000)
                + "\"}").statusCode()).isEqualTo(413);
        assertThat(asPortal("POST", "/apiops/portal/developers", "{\"email\":\"no-at-sign\",\"password\":"
                + "\"dev-Passw0rd-123\"}").statusCode()).isEqualTo(400);
    }
}
