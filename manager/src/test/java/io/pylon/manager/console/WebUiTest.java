package io.pylon.manager.console;

import io.pylon.core.testing.TestPods;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

class WebUiTest {
    private static final Pattern ASSET_BASE = Pattern.compile("src=\"(/ui/[0-9a-f]{12})/js/app\\.js\"");
    private static final Pattern IMPORT = Pattern.compile("(?:from|import)\\s*\\(?\\s*'(\\.{1,2}/[^']+)'");

    private static ManagerUnderTest manager;

    @BeforeAll
    static void start() {
        manager = new ManagerUnderTest(Map.of());
    }

    @AfterAll
    static void stop() {
        manager.close();
    }

    @Test
    void pageIsServedAtTheRootAndRevalidated() {
        HttpResponse<String> page = TestPods.get(manager.pod, "/");
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.headers().firstValue("Content-Type")).hasValue("text/html; charset=UTF-8");
        assertThat(page.headers().firstValue("Cache-Control")).hasValue("no-cache");
        assertThat(page.headers().firstValue("Content-Security-Policy").orElseThrow()).contains("script-src 'self'");
        assertThat(page.headers().firstValue("X-Content-Type-Options")).hasValue("nosniff");
        assertThat(page.body()).doesNotContain("%ASSETS%");
        String etag = page.headers().firstValue("ETag").orElseThrow();
        assertThat(TestPods.get(manager.pod, "/", "If-None-Match", etag).statusCode()).isEqualTo(304);
    }

    @Test
    void assetsAreCachedForGoodUnderTheirContentVersion() {
        String base = assetBase();
        HttpResponse<String> script = TestPods.get(manager.pod, base + "/js/app.js");
        assertThat(script.statusCode()).isEqualTo(200);
        assertThat(script.headers().firstValue("Content-Type")).hasValue("text/javascript; charset=UTF-8");
        assertThat(script.headers().firstValue("Cache-Control")).hasValue("public, max-age=31536000, immutable");
        HttpResponse<String> css = TestPods.get(manager.pod, base + "/css/app.css");
        assertThat(css.headers().firstValue("Content-Type")).hasValue("text/css; charset=UTF-8");
        HttpResponse<String> old = TestPods.get(manager.pod, "/ui/000000000000/js/app.js");
        assertThat(old.statusCode()).isEqualTo(200);
        assertThat(old.headers().firstValue("Cache-Control")).hasValue("no-cache");
    }

    @Test
    void unknownAndEscapingAssetPathsAre404() {
        String base = assetBase();
        assertThat(TestPods.get(manager.pod, base + "/js/nope.js").statusCode()).isEqualTo(404);
        assertThat(TestPods.get(manager.pod, base + "/../index.html").statusCode()).isEqualTo(404);
        assertThat(TestPods.get(manager.pod, base + "/index.html").statusCode()).isEqualTo(404);
        assertThat(TestPods.get(manager.pod, "/ui/js").statusCode()).isEqualTo(404);
    }

    @Test
    void everyModuleTheScriptsImportIsServed() {
        String base = assetBase();
        WebAssets assets = WebAssets.load();
        int checked = 0;
        for (String file : new String[]{"js/app.js", "js/views/servers.js", "js/views/profile.js", "js/views/users.js",
                "js/views/environments.js", "js/views/signin.js", "js/views/audit.js", "js/panels.js", "js/render.js", "js/pods.js"}) {
            String source = new String(assets.file(file), StandardCharsets.UTF_8);
            Matcher imports = IMPORT.matcher(source);
            while (imports.find()) {
                String target = java.nio.file.Path.of(file).resolveSibling(imports.group(1)).normalize().toString();
                assertThat(TestPods.get(manager.pod, base + "/" + target).statusCode()).as(file + " imports " + target).isEqualTo(200);
                checked++;
            }
        }
        assertThat(checked).isGreaterThan(20);
    }

    private static String assetBase() {
        Matcher matcher = ASSET_BASE.matcher(TestPods.get(manager.pod, "/").body());
        assertThat(matcher.find()).isTrue();
        return matcher.group(1);
    }
}
