package io.pylon.worker.proxy;

import io.pylon.gateway.model.InvalidProxyException;
import io.pylon.gateway.model.ProxyParser;
import io.pylon.worker.routes.RouteTable;
import io.pylon.worker.testing.TestCertificates;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Files an {@code upstreamTls} names are read when a table is applied; what cannot be used refuses the table. */
class UpstreamTlsContextsTest {
    private final ProxyParser parser = new ProxyParser("platform", Duration.ofSeconds(2), Duration.ofSeconds(30));

    private RouteTable table(String tls) throws InvalidProxyException {
        return new RouteTable(parser.parse(("routes:\n  - {name: orders, pathPrefix: /orders, upstreams: [https://x],"
                + " upstreamTls: " + tls + "}\n").getBytes(), false).routes());
    }

    @Test
    void unusableFilesNameTheProxyAndTheFieldNeverTheContent(@TempDir Path dir) throws Exception {
        TestCertificates.Issued ca = TestCertificates.authority("CA");
        TestCertificates.leaf("client", ca).write(dir, "client");
        TestCertificates.leaf("other", ca).write(dir, "other");
        Files.writeString(dir.resolve("junk.pem"), "not a certificate");
        UpstreamTlsContexts contexts = new UpstreamTlsContexts();
        for (String[] bad : new String[][]{
                {"{caFile: " + dir + "/missing.pem}", "upstreamTls.caFile", "cannot be read"},
                {"{caFile: " + dir + "/junk.pem}", "upstreamTls.caFile", "holds no certificate"},
                {"{certificateFile: " + dir + "/client.crt, keyFile: " + dir + "/other.key}", "upstreamTls.keyFile",
                        "is not the private key"},
                {"{certificateFile: " + dir + "/junk.pem, keyFile: " + dir + "/client.key}",
                        "upstreamTls.certificateFile", "holds no certificate"}}) {
            assertThatThrownBy(() -> contexts.prepare(table(bad[0]))).as(bad[0])
                    .isInstanceOf(InvalidProxyException.class)
                    .hasMessageStartingWith("Proxy 'orders': field '" + bad[1] + "'").hasMessageContaining(bad[2])
                    .hasMessageNotContaining("BEGIN")
                    .extracting(e -> ((InvalidProxyException) e).field()).isEqualTo(bad[1]);
        }
        RouteTable good = table("{caFile: " + dir + "/client.crt, certificateFile: " + dir + "/client.crt, keyFile: "
                + dir + "/client.key}");
        contexts.prepare(good);
        assertThat(contexts.get(good.routes().getFirst().forwarding().upstreamTls())).isNotNull();
    }
}
