package io.pylon.manager.auth;

import io.pylon.core.server.Pod;
import io.pylon.manager.ManagerClient;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * One keep-alive connection to a pod that sends token requests one after another, each as soon as the last was
 * answered: a client flooding the sign-in. A connection the pod ends without saying {@code Connection: close} fails
 * the next request. Floods use this rather than java.net.http: JDK 25's HTTP/1.1 pool watches an idle connection for
 * stray bytes, and when a connection is taken from the pool right after it went back and the answer comes at once, the
 * watcher may still be reading and take the answer for stray bytes: it closes the connection and the request fails
 * with "HTTP/1.1 header parser received no bytes" (caused by "Data received while in pool"), although the pod answered.
 *
 * <p>Threading: one thread uses an instance.
 */
final class KeepAliveConnection implements AutoCloseable {
    private final Pod pod;
    private Socket socket;
    private InputStream in;
    private OutputStream out;

    KeepAliveConnection(Pod pod) {
        this.pod = pod;
    }

    /** The status of a client-credentials token request for the account; opens the connection again after a close. */
    int login(String username, String password) throws IOException {
        byte[] body = ManagerClient.form(Map.of("grant_type", "client_credentials", "client_id", username,
                "client_secret", password)).getBytes(StandardCharsets.UTF_8);
        String head = "POST /apiops/auth/token HTTP/1.1\r\nHost: " + pod.identity().podIp() + ":" + pod.port() + "\r\n"
                + "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: " + body.length + "\r\n\r\n";
        if (socket == null) {
            socket = new Socket();
            socket.connect(new InetSocketAddress(pod.identity().podIp(), pod.port()), 5_000);
            socket.setSoTimeout(30_000);
            socket.setTcpNoDelay(true);
            in = new BufferedInputStream(socket.getInputStream());
            out = socket.getOutputStream();
        }
        byte[] request = new byte[head.length() + body.length];
        System.arraycopy(head.getBytes(StandardCharsets.US_ASCII), 0, request, 0, head.length());
        System.arraycopy(body, 0, request, head.length(), body.length);
        out.write(request);
        out.flush();
        SourceAddressClient.Answer answer = SourceAddressClient.parse(in);
        if ("close".equalsIgnoreCase(answer.header("Connection"))) {
            close();
        }
        return answer.status();
    }

    @Override
    public void close() throws IOException {
        if (socket != null) {
            socket.close();
            socket = null;
        }
    }
}
