package io.pylon.worker.proxy;

import org.apache.hc.core5.http.ClassicHttpRequest;
import org.apache.hc.core5.http.Header;
import org.apache.hc.core5.http.HttpException;
import org.apache.hc.core5.http.impl.io.DefaultHttpRequestWriter;
import org.apache.hc.core5.http.io.HttpMessageWriter;
import org.apache.hc.core5.http.io.SessionOutputBuffer;
import org.apache.hc.core5.http.message.BasicHeader;
import org.apache.hc.core5.http.message.BasicLineFormatter;
import org.apache.hc.core5.util.CharArrayBuffer;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Iterator;

/**
 * Writes an upstream request's head as HttpClient does, except that a {@link ObsText} header is written one byte a
 * char. HttpClient writes every char from 0x80 to 0x9F as {@code ?}, so a client's header value in UTF-8 (whose bytes
 * are mostly in that range) would reach the upstream changed. A request without such a header is written by HttpClient
 * itself. Used by one connection at a time, as HttpClient's own writer (its line buffer is confined to that thread).
 */
final class RequestHeadWriter extends DefaultHttpRequestWriter {
    private static final byte[] CRLF = {'\r', '\n'};

    private final CharArrayBuffer line = new CharArrayBuffer(128);

    /** One writer a connection. */
    static HttpMessageWriter<ClassicHttpRequest> create() {
        return new RequestHeadWriter();
    }

    /** A header whose value holds bytes outside ASCII, one char a byte: the upstream gets those bytes. */
    static final class ObsText extends BasicHeader {
        ObsText(String name, String latin1Value) {
            super(name, latin1Value);
        }
    }

    @Override
    public void write(ClassicHttpRequest request, SessionOutputBuffer buffer, OutputStream out)
            throws IOException, HttpException {
        if (!hasObsText(request)) {
            super.write(request, buffer, out);
            return;
        }
        line.clear();
        writeHeadLine(request, line);
        buffer.writeLine(line, out);
        for (Iterator<Header> it = request.headerIterator(); it.hasNext(); ) {
            Header header = it.next();
            if (header instanceof ObsText) {
                buffer.write((header.getName() + ": " + header.getValue()).getBytes(StandardCharsets.ISO_8859_1), out);
                buffer.write(CRLF, out);
            } else {
                line.clear();
                BasicLineFormatter.INSTANCE.formatHeader(line, header);
                buffer.writeLine(line, out);
            }
        }
        line.clear();
        buffer.writeLine(line, out);
    }

    private static boolean hasObsText(ClassicHttpRequest request) {
        for (Iterator<Header> it = request.headerIterator(); it.hasNext(); ) {
            if (it.next() instanceof ObsText) {
                return true;
            }
        }
        return false;
    }
}
