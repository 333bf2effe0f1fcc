package io.pylon.worker.proxy;

import io.pylon.core.http.Json;
import io.pylon.gateway.model.Cors;
import io.pylon.gateway.model.HeaderRules;
import io.pylon.gateway.model.IpRules;
import io.pylon.gateway.model.KeyAuth;
import io.pylon.gateway.model.Policies;
import io.pylon.worker.keys.KeySet;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** A published proxy admits its environment's Portal origin, and nothing else changes. */
class PortalCorsTest {
    private static final String PORTAL = "http://portal.example:8080";
    private static final Policies KEYED = new Policies(HeaderRules.NONE, HeaderRules.NONE, null, null, IpRules.NONE,
            new KeyAuth("X-API-Key"));

    private static KeySet keys(String environment) throws Exception {
        KeySet keys = new KeySet();
        keys.replace(Json.MAPPER.readTree("{\"version\":3,\"keys\":[],\"portal\":{\"published\":[\"orders\"],"
                + "\"origins\":{\"prod\":\"" + PORTAL + "\",\"test\":\"http://other:1\"}}}"), environment);
        return keys;
    }

    @Test
    void aPublishedProxyAdmitsThePortalOriginWithItsKeyHeader() throws Exception {
        Policies effective = PortalCors.effective("orders", KEYED, keys("prod"), PORTAL);

        Cors cors = effective.cors();
        assertThat(cors).isNotNull();
        assertThat(cors.allowsOrigin(PORTAL)).isTrue();
        assertThat(cors.allowsOrigin("http://evil.example")).isFalse();
        assertThat(cors.allowHeaders()).contains("X-API-Key", "Content-Type");
        assertThat(cors.exposeHeaders()).as("for the console to show").containsExactly("X-Request-Id");
        assertThat(effective.keyAuth()).isEqualTo(KEYED.keyAuth());
    }

    @Test
    void otherOriginsUnpublishedProxiesAndOtherEnvironmentsAreLeftAlone() throws Exception {
        assertThat(PortalCors.effective("orders", KEYED, keys("prod"), "http://evil.example")).isSameAs(KEYED);
        assertThat(PortalCors.effective("billing", KEYED, keys("prod"), PORTAL)).isSameAs(KEYED);
        assertThat(PortalCors.effective("orders", KEYED, keys("test"), PORTAL)).isSameAs(KEYED);
        assertThat(PortalCors.effective("orders", KEYED, keys(null), PORTAL)).isSameAs(KEYED);
        assertThat(PortalCors.effective("orders", KEYED, new KeySet(), PORTAL)).isSameAs(KEYED);
        assertThat(PortalCors.effective("orders", KEYED, keys("prod"), null)).isSameAs(KEYED);
    }

    @Test
    void theProxysOwnPolicyKeepsItsOriginsAndGainsThePortal() throws Exception {
        Cors own = new Cors(List.of("https://app.example"), List.of("GET"), List.of("Authorization"), List.of("X-Id"),
                true, null);
        Policies policies = new Policies(HeaderRules.NONE, HeaderRules.NONE, null, own, IpRules.NONE,
                new KeyAuth("X-API-Key"));

        Cors cors = PortalCors.effective("orders", policies, keys("prod"), PORTAL).cors();

        assertThat(cors.allowOrigins()).containsExactly("https://app.example", PORTAL);
        assertThat(cors.allowMethods()).containsExactly("GET");
        assertThat(cors.allowHeaders()).contains("Authorization", "X-API-Key");
        assertThat(cors.exposeHeaders()).containsExactly("X-Id", "X-Request-Id");
        assertThat(cors.allowCredentials()).isTrue();
    }
}
