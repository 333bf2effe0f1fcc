package io.pylon.core.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.helidon.http.HeaderNames;
import io.helidon.http.HeaderValues;
import io.helidon.http.Header;
import io.helidon.http.Status;
import io.helidon.webserver.http.ServerResponse;

/** The one JSON mapper of a pod, and the way every JSON response is written: compact, one line, UTF-8. */
public final class Json {
    public static final ObjectMapper MAPPER = JsonMapper.builder()
            .disable(SerializationFeature.INDENT_OUTPUT)
            .disable(SerializationFeature.FAIL_ON_EMPTY_BEANS)
            .build();

    public static final Header CONTENT_TYPE_JSON = HeaderValues.createCached(HeaderNames.CONTENT_TYPE, "application/json");

    private Json() {
    }

    public static byte[] bytes(Object value) {
        try {
            return MAPPER.writeValueAsBytes(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write JSON for " + value.getClass().getName(), e);
        }
    }

    public static void send(ServerResponse res, Status status, Object body) {
        res.status(status);
        res.header(CONTENT_TYPE_JSON);
        res.send(bytes(body));
    }

    public static void send(ServerResponse res, Object body) {
        send(res, Status.OK_200, body);
    }
}
