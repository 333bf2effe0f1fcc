package io.pylon.core.broadcast;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Raw loopback servers that stand in for broken pods: one that never answers, one that answers a fixed reply, one
 * that writes its reply its own way (slowly, cut short...).
 */
final class LoopbackPeers {
    private LoopbackPeers() {
    }

    /** A free port on 127.0.0.1 (free when asked; a test binds it right after). */
    static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Writes a reply to one request; the connection is closed after it. */
    interface Reply {
        void write(OutputStream out) throws IOException, InterruptedException;
    }

    /** Answers up to {@code answersPerConnection} requests of a connection, then closes it on the next one unanswered. */
    private record KeepAlive(byte[] head, byte[] body, int answersPerConnection, boolean reset) {
    }

    /** Accepts connections and reads requests, answering each with {@code reply} (or nothing when null). */
    static final class RawServer implements AutoCloseable {
        private final ServerSocket server;
        private final List<Socket> sockets = new CopyOnWriteArrayList<>();
        private final List<String> requests = new CopyOnWriteArrayList<>();

        RawServer(String reply) throws IOException {
            this(reply == null ? null : out -> out.write(reply.getBytes(StandardCharsets.UTF_8)), null);
        }

        /** A server that answers every request on a connection with {@code body}, keeping the connection open. */
        static RawServer keepingAlive(String body) throws IOException {
            return keepingAlive(body, Integer.MAX_VALUE);
        }

        /**
         * Like {@link #keepingAlive(String)}, but a connection that answered {@code answers} requests is closed when
         * the next request arrives, unanswered: what a pod's idle timeout does to a kept-alive connection whose request
         * is on its way (or that its starved reader has not read in time).
         */
        static RawServer keepingAlive(String body, int answers) throws IOException {
            return keptAlive(body, answers, false);
        }

        /** Like {@link #keepingAlive(String, int)}, but the unanswered close is a reset (SO_LINGER 0). */
        static RawServer keepingAliveThenResetting(String body, int answers) throws IOException {
            return keptAlive(body, answers, true);
        }

        private static RawServer keptAlive(String body, int answers, boolean reset) throws IOException {
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            byte[] head = ("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: " + bytes.length
                    + "\r\n\r\n").getBytes(StandardCharsets.UTF_8);
            return new RawServer(null, new KeepAlive(head, bytes, answers, reset));
        }

        /** A server that writes each reply its own way. */
        static RawServer writing(Reply reply) throws IOException {
            return new RawServer(reply, null);
        }

        // one request per connection answered with reply (or none when null), or, with keepAlive, several
        private RawServer(Reply reply, KeepAlive keepAlive) throws IOException {
            server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
            Thread.ofVirtual().start(() -> {
                while (!server.isClosed()) {
                    try {
                        Socket socket = server.accept();
                        sockets.add(socket);
                        Thread.ofVirtual().start(() -> serve(socket, reply, keepAlive));
                    } catch (IOException e) {
                        return;
                    }
                }
            });
        }

        private void serve(Socket socket, Reply reply, KeepAlive keepAlive) {
            try {
                InputStream in = socket.getInputStream();
                if (keepAlive != null) {
                    for (int answered = 0; readHead(in); answered++) {
                        if (answered == keepAlive.answersPerConnection()) {
                            if (keepAlive.reset()) {
                                socket.setSoLinger(true, 0);
                            }
                            socket.close();
                            return;
                        }
                        socket.getOutputStream().write(keepAlive.head());
                        socket.getOutputStream().write(keepAlive.body());
                        socket.getOutputStream().flush();
                    }
                    return;
                }
                readHead(in);
                if (reply != null) {
                    OutputStream out = socket.getOutputStream();
                    reply.write(out);
                    out.flush();
                    socket.close();
                }
            } catch (IOException e) {
                // the client went away
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        private boolean readHead(InputStream in) throws IOException {
            StringBuilder head = new StringBuilder();
            int b;
            while ((b = in.read()) >= 0) {
                head.append((char) b);
                if (head.toString().endsWith("\r\n\r\n")) {
                    requests.add(head.toString());
                    return true;
                }
            }
            return false;
        }

        /** The connections accepted so far. */
        int connections() {
            return sockets.size();
        }

        String url() {
            return "http://127.0.0.1:" + server.getLocalPort();
        }

        List<String> requests() {
            return new ArrayList<>(requests);
        }

        @Override
        public void close() throws IOException {
            server.close();
            for (Socket socket : sockets) {
                socket.close();
            }
        }
    }

    static String http200(String body) {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        return "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: " + bytes.length
                + "\r\nConnection: close\r\n\r\n" + body;
    }
}
