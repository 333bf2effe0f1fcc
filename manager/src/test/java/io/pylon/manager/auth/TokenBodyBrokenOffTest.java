package io.pylon.manager.auth;

import io.pylon.core.server.Pod;
import io.pylon.manager.ManagerClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A client that promises a token request body and breaks off before sending it all is a client error: no 5xx, no
 * SEVERE line, and nothing of what it sent in the log (the fuzz run found "Token request failed" at SEVERE).
 */
class TokenBodyBrokenOffTest {
    private static Pod pod;

    @BeforeAll
    static void start() {
        pod = ManagerClient.start("manager-broken-body", Map.of());
    }

    @AfterAll
    static void stop() {
        pod.stop();
    }

    @Test
    void aBodyCutShortIsNoServerErrorAndNoSevereLine() throws Exception {
        List<LogRecord> records = new CopyOnWriteArrayList<>();
        Handler capture = new Handler() {
            @Override
            public void publish(LogRecord record) {
                if (record.getLevel().intValue() >= Level.WARNING.intValue()) {
                    records.add(record);
                }
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        Logger root = Logger.getLogger("");
        root.addHandler(capture);
        try {
            for (int i = 0; i < 5; i++) {
                try (Socket socket = new Socket()) {
                    socket.connect(new InetSocketAddress(pod.identity().podIp(), pod.port()), 5000);
                    socket.setSoTimeout(5000);
                    OutputStream out = socket.getOutputStream();
                    out.write(("POST /apiops/auth/token HTTP/1.1\r\nHost: x\r\n"
                            + "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 500\r\n\r\n"
                            + "grant_type=client_credentials&client_id=ad\r\nFORGED").getBytes(StandardCharsets.ISO_8859_1));
                    out.flush();
                    socket.shutdownOutput();
                    String answer = new String(socket.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
                    if (!answer.isEmpty()) {
                        assertThat(answer).startsWith("HTTP/1.1 4");
                    }
                }
            }
            Thread.sleep(300); // a handler still running when the socket closed logs after it
        } finally {
            root.removeHandler(capture);
        }
        assertThat(records).as("log records at WARNING or above").extracting(LogRecord::getMessage)
                .noneMatch(m -> m != null && m.contains("Token request failed"))
                .noneMatch(m -> m != null && m.contains("FORGED"));
    }
}
