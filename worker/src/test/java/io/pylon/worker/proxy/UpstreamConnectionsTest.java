package io.pylon.worker.proxy;

import org.apache.hc.client5.http.io.ManagedHttpClientConnection;
import org.apache.hc.core5.http.ClassicHttpResponse;
import org.apache.hc.core5.http.HttpHost;
import org.apache.hc.core5.http.io.entity.EntityUtils;
import org.apache.hc.core5.http.message.BasicClassicHttpRequest;
import org.junit.jupiter.api.Test;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

/** The pools' connections: HttpClient's, on a real socket, whose read timeout pooling no longer touches. */
class UpstreamConnectionsTest {
    @Test
    void leaseAndReleaseLeaveTheSocketTimeoutAndExchangesWork() throws Exception {
        try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
             Socket socket = new Socket(server.getInetAddress(), server.getLocalPort());
             Socket upstream = server.accept()) {
            ManagedHttpClientConnection connection = UpstreamConnections.INSTANCE.createConnection(socket);
            // a value HttpClient's own connection would overwrite: passivate() sets 0, activate() the bound value
            socket.setSoTimeout(1234);

            connection.passivate();
            assertThat(socket.getSoTimeout()).as("released: the socket timeout is untouched").isEqualTo(1234);
            connection.activate();
            assertThat(socket.getSoTimeout()).as("leased: the socket timeout is untouched").isEqualTo(1234);

            BasicClassicHttpRequest request = new BasicClassicHttpRequest("GET", new HttpHost("127.0.0.1"), "/x");
            request.addHeader("Host", "127.0.0.1");
            connection.sendRequestHeader(request);
            connection.flush();
            InputStream in = upstream.getInputStream();
            byte[] head = new byte[4];
            assertThat(in.readNBytes(head, 0, 4)).isEqualTo(4);
            assertThat(new String(head, StandardCharsets.ISO_8859_1)).isEqualTo("GET ");
            OutputStream out = upstream.getOutputStream();
            out.write("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok".getBytes(StandardCharsets.ISO_8859_1));
            out.flush();

            ClassicHttpResponse response = connection.receiveResponseHeader();
            connection.receiveResponseEntity(response);
            assertThat(response.getCode()).isEqualTo(200);
            assertThat(EntityUtils.toString(response.getEntity())).isEqualTo("ok");
            assertThat(connection.isOpen()).isTrue();
            assertThat(connection.getSocket()).isSameAs(socket);
            connection.close();
            assertThat(connection.isOpen()).isFalse();
        }
    }
}
