package io.pylon.core.broadcast;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.JsonProcessingException;
import io.pylon.core.http.Json;

import java.io.IOException;
import java.io.InputStream;

/** Reads one pod's answer and checks that it is one JSON object, so that a broken pod cannot break the aggregate. */
final class AnswerReader {
    private AnswerReader() {
    }

    /**
     * The answer's bytes, exactly as sent when they are one compact JSON object, re-written compact otherwise.
     *
     * @param length the answer's Content-Length, read into an array of that size at once; -1 when not announced
     */
    static byte[] readObject(InputStream in, long length, long maxBytes) throws IOException, PodFailedException {
        byte[] bytes;
        if (length > maxBytes) {
            throw new PodFailedException(PodFailure.malformed(tooLarge(maxBytes)));
        } else if (length >= 0) {
            bytes = in.readNBytes((int) length);
            if (bytes.length < length) {
                throw new PodFailedException(PodFailure.malformed("truncated at " + bytes.length + " of " + length + " bytes"));
            }
            // the end of the entity must be read too: only then does the client give the connection back for reuse
            // (closed otherwise: a new connection per call)
            if (in.read() != -1) {
                throw new PodFailedException(PodFailure.malformed("longer than its Content-Length"));
            }
        } else {
            bytes = in.readNBytes((int) Math.min(Integer.MAX_VALUE - 8, maxBytes + 1));
            if (bytes.length > maxBytes) {
                throw new PodFailedException(PodFailure.malformed(tooLarge(maxBytes)));
            }
        }
        checkObject(bytes);
        return hasLineBreak(bytes) ? Json.MAPPER.writeValueAsBytes(Json.MAPPER.readTree(bytes)) : bytes;
    }

    static String tooLarge(long maxBytes) {
        return "larger than " + maxBytes / (1024 * 1024) + " MiB";
    }

    static void checkObject(byte[] bytes) throws PodFailedException {
        try (JsonParser parser = Json.MAPPER.getFactory().createParser(bytes)) {
            if (parser.nextToken() != JsonToken.START_OBJECT) {
                throw new PodFailedException(PodFailure.malformed("not a JSON object"));
            }
            parser.skipChildren();
            if (parser.nextToken() != null) {
                throw new PodFailedException(PodFailure.malformed("content after the JSON object"));
            }
        } catch (JsonProcessingException e) {
            throw new PodFailedException(PodFailure.malformed("invalid JSON"));
        } catch (IOException e) {
            throw new PodFailedException(PodFailure.malformed("unreadable"));
        }
    }

    // Line breaks can only be whitespace between tokens (JSON strings escape them); collectors need one line.
    private static boolean hasLineBreak(byte[] bytes) {
        for (byte b : bytes) {
            if (b == '\n' || b == '\r') {
                return true;
            }
        }
        return false;
    }
}
