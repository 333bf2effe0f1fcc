package io.pylon.manager.auth;

import io.pylon.core.server.Pod;
import io.pylon.manager.ManagerClient;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Token requests over a raw socket bound to a chosen loopback source address (127.0.11.x), so that a test can sign
 * in "from" several addresses: the JDK's HttpClient cannot choose its local address.
 */
final class SourceAddressClient {
    record Answer(int status, Map<String, String> headers, String body) {
        String header(String name) {
            return headers.get(name.toLowerCase(Locale.ROOT));
        }
    }

    private SourceAddressClient() {
    }

    static Answer login(Pod pod, String source, String username, String password) {
        return post(pod, source, "/apiops/auth/token", ManagerClient.form(Map.of("grant_type", "client_credentials",
                "client_id", username, "client_secret", password)));
    }

    /** @param headerLines more request headers, each {@code Name: value} */
    static Answer post(Pod pod, String source, String path, String form, String... headerLines) {
        byte[] body = form.getBytes(StandardCharsets.UTF_8);
        StringBuilder more = new StringBuilder();
        for (String line : headerLines) {
            more.append(line).append("\r\n");
        }
        String head = "POST " + path + " HTTP/1.1\r\nHost: " + pod.identity().podIp() + ":" + pod.port() + "\r\n"
                + "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: " + body.length + "\r\n"
                + more + "Connection: close\r\n\r\n";
        try (Socket socket = new Socket()) {
            socket.bind(new InetSocketAddress(InetAddress.getByName(source), 0));
            socket.connect(new InetSocketAddress(pod.identity().podIp(), pod.port()), 5_000);
            socket.setSoTimeout(30_000);
            OutputStream out = socket.getOutputStream();
            out.write(head.getBytes(StandardCharsets.US_ASCII));
            out.write(body);
            out.flush();
            return parse(socket.getInputStream());
        } catch (IOException e) {
            throw new IllegalStateException("token request from " + source + " failed", e);
        }
    }

    // reads the head up to the blank line, then exactly the body (Content-Length or chunked): the server may keep
    // the connection open whatever the request says
    static Answer parse(InputStream in) throws IOException {
        String[] lines = line(in, "\r\n\r\n").split("\r\n");
        Map<String, String> headers = new LinkedHashMap<>();
        for (int i = 1; i < lines.length; i++) {
            int colon = lines[i].indexOf(':');
            headers.put(lines[i].substring(0, colon).strip().toLowerCase(Locale.ROOT), lines[i].substring(colon + 1).strip());
        }
        StringBuilder body = new StringBuilder();
        if (headers.containsKey("content-length")) {
            body.append(new String(in.readNBytes(Integer.parseInt(headers.get("content-length"))), StandardCharsets.UTF_8));
        } else if ("chunked".equalsIgnoreCase(headers.get("transfer-encoding"))) {
            int size;
            while ((size = Integer.parseInt(line(in, "\r\n").strip(), 16)) > 0) {
                body.append(new String(in.readNBytes(size), StandardCharsets.UTF_8));
                line(in, "\r\n");
            }
        }
        return new Answer(Integer.parseInt(lines[0].split(" ")[1]), headers, body.toString());
    }

    private static String line(InputStream in, String terminator) throws IOException {
        StringBuilder text = new StringBuilder();
        while (text.length() < terminator.length() || !text.toString().endsWith(terminator)) {
            int b = in.read();
            if (b < 0) {
                throw new IOException("connection closed after: " + text);
            }
            text.append((char) b);
        }
        return text.substring(0, text.length() - terminator.length());
    }
}
