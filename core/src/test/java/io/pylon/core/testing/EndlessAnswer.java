package io.pylon.core.testing;

import com.sun.net.httpserver.HttpExchange;

import java.io.IOException;
import java.io.OutputStream;
import java.util.Arrays;

/** A test server's answer whose body never ends: 200, chunked, {@code start} then spaces until the client closes. */
public final class EndlessAnswer {
    private EndlessAnswer() {
    }

    /**
     * Sends the answer on {@code exchange} until the client closes its connection, then runs {@code onClosed}.
     *
     * @param start the body's first bytes (a JSON document's opening, say)
     */
    public static void send(HttpExchange exchange, byte[] start, Runnable onClosed) throws IOException {
        exchange.sendResponseHeaders(200, 0);
        byte[] block = new byte[64 * 1024];
        Arrays.fill(block, (byte) ' ');
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(start);
            while (true) {
                out.write(block);
            }
        } catch (IOException e) {
            onClosed.run();
        }
    }
}
