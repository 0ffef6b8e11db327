package org.llmplatform.tracing.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.smallrye.mutiny.Multi;
import io.vertx.core.buffer.Buffer;
import jakarta.ws.rs.core.HttpHeaders;
import java.util.List;
import org.jboss.resteasy.reactive.RestMulti;

/**
 * A JSON Lines body written a few hundred lines at a time. The streaming writer waits for each write
 * to finish before asking for the next element and ends every element with a newline, so one element
 * per line would cost a write per line; here an element is a group of lines joined by newlines.
 * Back-pressure is kept: a group is only read once the writer asks for it.
 */
public final class JsonLinesBody {

    static final int LINES_PER_WRITE = 256;

    static final String JSON_LINES = "application/jsonl";

    private JsonLinesBody() {
    }

    /** The media type a JSON Lines answer declares: what the caller accepts, else {@code application/jsonl}. */
    public static String contentType(String accept) {
        return accept == null || accept.isBlank() || accept.equals("*/*") ? JSON_LINES : accept;
    }

    /** A 200 whose body is these values as JSON Lines, declared as {@link #contentType} of the request's Accept. */
    public static RestMulti<Buffer> response(Multi<?> values, ObjectMapper json, String accept) {
        return RestMulti.fromMultiData(of(values, json)).status(200).header(HttpHeaders.CONTENT_TYPE, contentType(accept))
                .encodeAsJsonArray(false).build();
    }

    public static Multi<Buffer> of(Multi<?> values, ObjectMapper json) {
        return values.group().intoLists().of(LINES_PER_WRITE).map(group -> lines(group, json));
    }

    private static Buffer lines(List<?> values, ObjectMapper json) {
        Buffer buffer = Buffer.buffer(values.size() * 1024);
        for (int i = 0; i < values.size(); i++) {
            if (i > 0) {
                buffer.appendByte((byte) '\n');
            }
            try {
                buffer.appendBytes(json.writeValueAsBytes(values.get(i)));
            } catch (JsonProcessingException e) {
                throw new IllegalStateException("a row could not be written as JSON", e);
            }
        }
        return buffer;
    }
}
