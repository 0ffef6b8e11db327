package org.llmplatform.inference.service.upstream;

import io.vertx.mutiny.core.buffer.Buffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Splits an upstream SSE body into the data payloads of its events. Works on bytes, so a character
 * split across network buffers is never corrupted; comment lines (keep-alives) are dropped.
 */
final class SseEvents {

    private Buffer pending = Buffer.buffer();

    List<String> feed(Buffer chunk) {
        pending.appendBuffer(chunk);
        List<String> payloads = new ArrayList<>();
        int start = 0;
        byte[] bytes = pending.getBytes();
        for (int i = 0; i + 1 < bytes.length; i++) {
            if (bytes[i] == '\n' && bytes[i + 1] == '\n') {
                String event = new String(bytes, start, i - start, StandardCharsets.UTF_8);
                String payload = payload(event);
                if (payload != null) {
                    payloads.add(payload);
                }
                start = i + 2;
                i++;
            }
        }
        pending = Buffer.buffer().appendBytes(bytes, start, bytes.length - start);
        return payloads;
    }

    private static String payload(String event) {
        StringBuilder data = null;
        for (String line : event.replace("\r", "").split("\n")) {
            if (line.startsWith("data:")) {
                String value = line.substring(5);
                value = value.startsWith(" ") ? value.substring(1) : value;
                data = data == null ? new StringBuilder(value) : data.append('\n').append(value);
            }
        }
        return data == null ? null : data.toString();
    }
}
