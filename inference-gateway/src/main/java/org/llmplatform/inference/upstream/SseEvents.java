package org.llmplatform.inference.upstream;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Splits an upstream SSE body into its events: their data payloads ({@link #feed}; comment lines, keep-alives, are
 * dropped), or the events whole as they came ({@link #feedWhole}). Works on bytes, so a character split across network
 * buffers is never corrupted. An event that is one {@code data: } line (what vLLM sends) is cut out of the bytes
 * without further copies.
 */
public final class SseEvents {

    private static final byte[] NO_BYTES = new byte[0];
    private static final byte[] DATA = "data: ".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] USAGE = "\"usage\"".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] ERROR = "\"error\"".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] DONE = "[DONE]".getBytes(StandardCharsets.US_ASCII);

    /** The start of an event whose end has not arrived yet. */
    private byte[] pending = NO_BYTES;

    /**
     * Whether {@code chunk} may be passed on byte for byte without being fed: nothing of an earlier event is
     * pending, and it is whole one-line {@code data: } events only, each containing {@code field}, none
     * mentioning usage, an error or {@code [DONE]}. A chunk that contains them only escaped inside a string
     * is refused too, which costs a look inside, never a wrong relay.
     */
    boolean passesAsIs(byte[] chunk, byte[] field) {
        int length = chunk.length;
        if (pending.length != 0 || length < 2 || chunk[length - 1] != '\n' || chunk[length - 2] != '\n'
                || !at(chunk, 0, DATA)) {
            return false;
        }
        int events = 0;
        int fields = 0;
        for (int i = 0; i < length; i++) {
            byte b = chunk[i];
            if (b == '\r') {
                return false;
            } else if (b == '\n') {
                if (i + 1 == length || chunk[i + 1] != '\n' || i + 2 < length && !at(chunk, i + 2, DATA)) {
                    return false;
                }
                events++;
                i++;
            } else if (b == '"') {
                if (at(chunk, i, USAGE) || at(chunk, i, ERROR)) {
                    return false;
                }
                if (at(chunk, i, field)) {
                    fields++;
                }
            } else if (b == '[' && at(chunk, i, DONE)) {
                return false;
            }
        }
        return fields == events;
    }

    private static boolean at(byte[] bytes, int offset, byte[] expected) {
        return offset + expected.length <= bytes.length
                && Arrays.equals(bytes, offset, offset + expected.length, expected, 0, expected.length);
    }

    /** The data payloads of the events that {@code chunk} completes (a partial event waits for the next chunk). */
    public List<String> feed(byte[] chunk) {
        List<String> payloads = new ArrayList<>(2);
        split(chunk, (bytes, start, end, next) -> {
            String payload = payload(bytes, start, end);
            if (payload != null) {
                payloads.add(payload);
            }
        });
        return payloads;
    }

    /**
     * The events that {@code chunk} completes, each whole as it came (its {@code event:} and {@code data:} lines and the
     * blank line ending it), for a relay that passes most of them on byte for byte.
     */
    public List<byte[]> feedWhole(byte[] chunk) {
        List<byte[]> whole = new ArrayList<>(4);
        split(chunk, (bytes, start, end, next) -> whole.add(start == 0 && next == bytes.length ? bytes
                : Arrays.copyOfRange(bytes, start, next)));
        return whole;
    }

    /** An event found in {@code bytes[start, end)}, {@code next} where the one after it begins. */
    private interface EventFound {
        void event(byte[] bytes, int start, int end, int next);
    }

    private void split(byte[] chunk, EventFound found) {
        byte[] bytes = pending.length == 0 ? chunk : concat(pending, chunk);
        int start = 0;
        for (int i = 0; i + 1 < bytes.length; i++) {
            if (bytes[i] == '\n' && (bytes[i + 1] == '\n' || bytes[i + 1] == '\r' && i + 2 < bytes.length
                    && bytes[i + 2] == '\n')) {
                int next = bytes[i + 1] == '\n' ? i + 2 : i + 3;
                found.event(bytes, start, i, next);
                start = next;
                i = start - 1;
            }
        }
        pending = start == bytes.length ? NO_BYTES : Arrays.copyOfRange(bytes, start, bytes.length);
    }

    /** The data of an event that {@link #feedWhole} returned, or null when it has none. */
    static String data(byte[] event) {
        int end = event.length;
        while (end > 0 && (event[end - 1] == '\n' || event[end - 1] == '\r')) {
            end--;
        }
        return payload(event, 0, end);
    }

    /** Whether {@code bytes} contain {@code expected}. */
    static boolean contains(byte[] bytes, byte[] expected) {
        for (int i = 0; i + expected.length <= bytes.length; i++) {
            if (bytes[i] == expected[0] && at(bytes, i, expected)) {
                return true;
            }
        }
        return false;
    }

    private static byte[] concat(byte[] first, byte[] second) {
        byte[] both = Arrays.copyOf(first, first.length + second.length);
        System.arraycopy(second, 0, both, first.length, second.length);
        return both;
    }

    /** The data of the event in {@code bytes[start, end)}, or null when it has none. */
    private static String payload(byte[] bytes, int start, int end) {
        if (singleDataLine(bytes, start, end)) {
            int from = start + 5 + (end > start + 5 && bytes[start + 5] == ' ' ? 1 : 0);
            int to = end > from && bytes[end - 1] == '\r' ? end - 1 : end;
            return new String(bytes, from, to - from, StandardCharsets.UTF_8);
        }
        StringBuilder data = null;
        String event = new String(bytes, start, end - start, StandardCharsets.UTF_8);
        for (String line : event.replace("\r", "").split("\n")) {
            if (line.startsWith("data:")) {
                String value = line.substring(5);
                value = value.startsWith(" ") ? value.substring(1) : value;
                data = data == null ? new StringBuilder(value) : data.append('\n').append(value);
            }
        }
        return data == null ? null : data.toString();
    }

    private static boolean singleDataLine(byte[] bytes, int start, int end) {
        if (end - start < 5 || bytes[start] != 'd' || bytes[start + 1] != 'a' || bytes[start + 2] != 't'
                || bytes[start + 3] != 'a' || bytes[start + 4] != ':') {
            return false;
        }
        for (int i = start + 5; i < end; i++) {
            if (bytes[i] == '\n' || bytes[i] == '\r' && i != end - 1) {
                return false;
            }
        }
        return true;
    }
}
