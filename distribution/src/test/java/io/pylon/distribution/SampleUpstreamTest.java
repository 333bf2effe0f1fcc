package io.pylon.distribution;

import org.junit.jupiter.api.Test;

import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

class SampleUpstreamTest {

    @Test
    void aWebhookSenderThatStallsMidBodyDoesNotHoldTheSampleOrTheInbox() throws Exception {
        try (SampleUpstream sample = SampleUpstream.start("127.0.0.1")) {
            URI base = URI.create(sample.url());
            HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
            try (Socket slow = new Socket(base.getHost(), base.getPort())) {
                OutputStream out = slow.getOutputStream();
                out.write(("POST /hooks/rates HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{\"partial\":")
                        .getBytes(StandardCharsets.US_ASCII));
                out.flush();

                HttpResponse<String> echo = client.send(HttpRequest.newBuilder(base.resolve("/sample/ping"))
                        .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
                assertThat(echo.statusCode()).isEqualTo(200);
                assertThat(echo.body()).contains("\"path\":\"/sample/ping\"");

                HttpResponse<String> posted = client.send(HttpRequest.newBuilder(base.resolve("/hooks/rates"))
                        .timeout(Duration.ofSeconds(10)).POST(HttpRequest.BodyPublishers.ofString("{\"eur\":1.1}"))
                        .build(), HttpResponse.BodyHandlers.ofString());
                assertThat(posted.statusCode()).isEqualTo(200);
                HttpResponse<String> listed = client.send(HttpRequest.newBuilder(base.resolve("/hooks/rates"))
                        .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
                assertThat(listed.body()).contains("\"eur\":1.1").doesNotContain("partial");
            }
        }
    }
}
