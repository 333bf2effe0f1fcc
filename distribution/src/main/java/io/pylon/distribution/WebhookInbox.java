package io.pylon.distribution;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import io.pylon.core.http.Json;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;

/**
 * A webhook receiver for trying flows on {@code pylon up}: the sample upstream keeps what is POSTed under
 * {@code /hooks/<name>} (the newest {@link #KEEP} deliveries, each body cut to {@link #MAX_BODY} bytes) and lists a
 * name's deliveries on {@code GET /hooks/<name>}, oldest first, with the headers a flow's webhook step sends
 * (X-Pylon-Delivery, X-Pylon-Timestamp, X-Pylon-Signature).
 *
 * <p>Threading: the deliveries are guarded by this object's monitor; the server calls it from any thread.
 */
final class WebhookInbox {
    static final String PREFIX = "/hooks/";
    static final int KEEP = 100;
    static final int MAX_BODY = 64 * 1024;

    private final Deque<ObjectNode> deliveries = new ArrayDeque<>();

    /** Answers a POST (kept) or GET (listed) under {@link #PREFIX}. */
    void handle(HttpExchange exchange) throws IOException {
        String path = exchange.getRequestURI().getRawPath();
        byte[] answer;
        int status = 200;
        if (exchange.getRequestMethod().equals("POST")) {
            byte[] body = exchange.getRequestBody().readNBytes(MAX_BODY);
            ObjectNode delivery = Json.MAPPER.createObjectNode();
            delivery.put("receivedAt", Instant.now().toString());
            delivery.put("path", path);
            for (String header : new String[]{"X-Pylon-Delivery", "X-Pylon-Timestamp", "X-Pylon-Signature"}) {
                String value = exchange.getRequestHeaders().getFirst(header);
                if (value != null) {
                    delivery.put(header, value);
                }
            }
            delivery.set("body", parse(body));
            int count;
            synchronized (this) {
                deliveries.addLast(delivery);
                while (deliveries.size() > KEEP) {
                    deliveries.removeFirst();
                }
                count = (int) deliveries.stream().filter(d -> d.path("path").asText().equals(path)).count();
            }
            answer = ("{\"received\":" + count + "}\n").getBytes(StandardCharsets.UTF_8);
        } else if (exchange.getRequestMethod().equals("GET")) {
            ObjectNode root = Json.MAPPER.createObjectNode();
            ArrayNode list = root.putArray("deliveries");
            synchronized (this) {
                deliveries.stream().filter(d -> d.path("path").asText().equals(path)).forEach(list::add);
            }
            answer = Json.MAPPER.writeValueAsBytes(root);
        } else {
            status = 405;
            answer = "{\"error\":\"method_not_allowed\",\"error_description\":\"POST a delivery or GET the deliveries.\"}\n"
                    .getBytes(StandardCharsets.UTF_8);
        }
        exchange.getResponseHeaders().add("Content-Type", "application/json");
        exchange.sendResponseHeaders(status, answer.length);
        try (var out = exchange.getResponseBody()) {
            out.write(answer);
        }
    }

    private static JsonNode parse(byte[] body) {
        try {
            JsonNode node = Json.MAPPER.readTree(body);
            return node == null || node.isMissingNode() ? Json.MAPPER.getNodeFactory().nullNode() : node;
        } catch (IOException e) {
            return Json.MAPPER.getNodeFactory().textNode(new String(body, StandardCharsets.UTF_8));
        }
    }
}
