package org.llmplatform.llama;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * Turns token bytes into text, holding back a multi-byte character until all its bytes arrived, so a
 * streamed delta never carries half a character.
 */
public final class Utf8Accumulator {

    private final ByteArrayOutputStream pending = new ByteArrayOutputStream();

    /** Appends bytes and returns the text of every character now complete. */
    public String append(byte[] bytes) {
        pending.writeBytes(bytes);
        byte[] all = pending.toByteArray();
        int complete = completePrefix(all);
        pending.reset();
        pending.write(all, complete, all.length - complete);
        return new String(all, 0, complete, StandardCharsets.UTF_8);
    }

    /** Whatever is left, invalid bytes replaced, at the end of the text. */
    public String flush() {
        String rest = pending.toString(StandardCharsets.UTF_8);
        pending.reset();
        return rest;
    }

    /** The length of the prefix that does not end inside a multi-byte character. */
    private static int completePrefix(byte[] bytes) {
        int end = bytes.length;
        for (int back = 1; back <= Math.min(3, end); back++) {
            int b = bytes[end - back] & 0xff;
            if ((b & 0xc0) == 0x80) {
                continue; // a continuation byte: keep looking for the lead
            }
            int needed = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
            return needed > back ? end - back : end;
        }
        return end;
    }
}
