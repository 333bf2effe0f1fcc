package io.pylon.gateway.model;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RenderedBundleTest {
    private final ObjectMapper json = new ObjectMapper();
    private final ProxyParser parser = new ProxyParser("platform", Duration.ofSeconds(2), Duration.ofSeconds(30));

    @Test
    void equalDefinitionsRenderToEqualBytesWhateverTheirOrder() throws Exception {
        JsonNode a1 = json.readTree("{\"name\":\"a\",\"pathPrefix\":\"/a\",\"upstreams\":[\"http://h:1\"]}");
        JsonNode a2 = json.readTree("{\"upstreams\":[\"http://h:1\"],\"pathPrefix\":\"/a\",\"name\":\"a\"}");
        JsonNode b = json.readTree("{\"name\":\"b\",\"pathPrefix\":\"/b\",\"upstreams\":[\"http://h:2\"]}");
        RenderedBundle one = RenderedBundle.render(3, List.of(a1, b));
        RenderedBundle two = RenderedBundle.render(3, List.of(b, a2));
        assertThat(one.json()).isEqualTo(two.json());
        assertThat(one.sha256()).isEqualTo(two.sha256()).hasSize(64);
        assertThat(new String(one.json(), StandardCharsets.UTF_8)).isEqualTo("{\"proxies\":["
                + "{\"name\":\"a\",\"pathPrefix\":\"/a\",\"upstreams\":[\"http://h:1\"]},"
                + "{\"name\":\"b\",\"pathPrefix\":\"/b\",\"upstreams\":[\"http://h:2\"]}],\"version\":3}");
        assertThat(RenderedBundle.render(4, List.of(a1, b)).sha256()).isNotEqualTo(one.sha256());

        Bundle parsed = parser.parse(one.json(), true);
        assertThat(parsed.version()).isEqualTo(3L);
        assertThat(parsed.routes()).extracting(Route::name).containsExactly("a", "b");
    }

    @Test
    void aTruncatedOrAlteredCopyDoesNotMatchItsHash() {
        RenderedBundle bundle = RenderedBundle.render(1, List.of());
        assertThat(RenderedBundle.matches(bundle.json(), bundle.sha256())).isTrue();
        assertThat(RenderedBundle.matches(Arrays.copyOf(bundle.json(), bundle.json().length - 1), bundle.sha256()))
                .isFalse();
        assertThat(RenderedBundle.matches(bundle.json(), null)).isFalse();
    }

    @Test
    void documentsAreRefusedWithTheReason() {
        assertThatThrownBy(() -> parser.parse("{\"proxies\":[{\"name\":\"a\"".getBytes(StandardCharsets.UTF_8), true))
                .hasMessageContaining("not valid JSON");
        assertThatThrownBy(() -> parser.parse("{\"version\":-1}".getBytes(StandardCharsets.UTF_8), true))
                .hasMessageContaining("'version'");
        assertThatThrownBy(() -> parser.parse("{\"routes\":[],\"proxies\":[]}".getBytes(StandardCharsets.UTF_8), true))
                .hasMessageContaining("not both");
        assertThatThrownBy(() -> parser.parse("[1]".getBytes(StandardCharsets.UTF_8), true))
                .hasMessageContaining("must be an object");
        assertThatThrownBy(() -> parser.parse("{\"proxies\":[{\"name\":\"a\",\"pathPrefix\":\"/a\",\"upstreams\":[\"http://h:1\"]},{\"name\":\"a\",\"pathPrefix\":\"/b\",\"upstreams\":[\"http://h:1\"]}]}"
                .getBytes(StandardCharsets.UTF_8), true))
                .hasMessageContaining("proxies[1]").hasMessageContaining("another proxy");
    }

    @Test
    void readsAThousandProxies() throws Exception {
        StringBuilder doc = new StringBuilder("{\"version\":1,\"proxies\":[");
        for (int i = 0; i < 1000; i++) {
            doc.append(i == 0 ? "" : ",").append("{\"name\":\"p").append(i).append("\",\"pathPrefix\":\"/p")
                    .append(i).append("\",\"upstreams\":[\"http://127.0.0.1:1\"]}");
        }
        doc.append("]}");
        assertThat(parser.parse(doc.toString().getBytes(StandardCharsets.UTF_8), true).routes()).hasSize(1000);
    }
}
