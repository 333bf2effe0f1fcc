package io.pylon.manager.portal;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The document "Try it" renders: servers at the Worker, the key header as a security scheme; origins of URLs. */
class TryItDocumentTest {
    @Test
    void anOpenApi3DocumentGetsTheWorkerAsItsOnlyServerAndTheKeyScheme() {
        JsonNode document = TryItDocument.rewrite("openapi: 3.0.3\ninfo: {title: Orders, version: '1'}\n"
                + "servers: [{url: 'http://upstream.internal:9000'}]\npaths: {/orders: {get: {responses: {'200': "
                + "{description: OK}}}}}\n", "http://127.0.0.4:8091/shop", "X-API-Key");

        assertThat(document.path("servers")).hasSize(1);
        assertThat(document.path("servers").get(0).path("url").asText()).isEqualTo("http://127.0.0.4:8091/shop");
        JsonNode scheme = document.path("components").path("securitySchemes").path(TryItDocument.SCHEME);
        assertThat(scheme.path("type").asText()).isEqualTo("apiKey");
        assertThat(scheme.path("in").asText()).isEqualTo("header");
        assertThat(scheme.path("name").asText()).isEqualTo("X-API-Key");
        assertThat(document.path("security").get(0).has(TryItDocument.SCHEME)).isTrue();
        assertThat(document.path("paths").has("/orders")).isTrue();
    }

    @Test
    void withoutKeyAuthNoSchemeIsAdded() {
        JsonNode document = TryItDocument.rewrite("{\"openapi\":\"3.1.0\",\"info\":{\"title\":\"T\",\"version\":\"1\"},"
                + "\"paths\":{}}", "https://gw.example", null);

        assertThat(document.path("servers").get(0).path("url").asText()).isEqualTo("https://gw.example");
        assertThat(document.has("security")).isFalse();
    }

    @Test
    void aSwagger2DocumentGetsHostBasePathAndSchemes() {
        JsonNode document = TryItDocument.rewrite("{\"swagger\":\"2.0\",\"host\":\"upstream\",\"paths\":{}}",
                "http://127.0.0.4:8091/v1", "X-Key");

        assertThat(document.path("host").asText()).isEqualTo("127.0.0.4:8091");
        assertThat(document.path("basePath").asText()).isEqualTo("/v1");
        assertThat(document.path("schemes").get(0).asText()).isEqualTo("http");
        assertThat(document.path("securityDefinitions").path(TryItDocument.SCHEME).path("name").asText())
                .isEqualTo("X-Key");
    }

    @Test
    void textThatIsNoObjectIsNoDocument() {
        assertThat(TryItDocument.rewrite("- a\n- b\n", "http://w", null)).isNull();
        assertThat(TryItDocument.rewrite("{ not: [closed", "http://w", null)).isNull();
    }

    @Test
    void anOriginIsSchemeHostAndANonDefaultPort() {
        assertThat(WebOrigin.of("http://127.0.0.7:8080/portal/")).isEqualTo("http://127.0.0.7:8080");
        assertThat(WebOrigin.of("HTTPS://Portal.Example:443")).isEqualTo("https://portal.example");
        assertThat(WebOrigin.of("http://portal.example:80/x")).isEqualTo("http://portal.example");
        assertThat(WebOrigin.of("ftp://portal.example")).isNull();
        assertThat(WebOrigin.of("not a url")).isNull();
    }
}
