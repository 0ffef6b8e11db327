package org.llmplatform.testing.fuzz;

import java.nio.charset.StandardCharsets;
import java.util.List;

/** One request as it goes on the wire, with what is wrong with it. */
record MalformedRequest(String method, byte[] target, List<Header> headers, byte[] body, String flaw) {

    record Header(String name, byte[] value) {

        static Header of(String name, String value) {
            return new Header(name, value.getBytes(StandardCharsets.UTF_8));
        }
    }

    /** The request as a failure report shows it: long parts cut short. */
    String describe() {
        StringBuilder text = new StringBuilder(method).append(' ').append(shortened(new String(target, StandardCharsets.UTF_8)));
        for (Header header : headers) {
            text.append(" | ").append(header.name()).append(": ").append(shortened(new String(header.value(), StandardCharsets.UTF_8)));
        }
        if (body.length > 0) {
            text.append(" | body ").append(shortened(new String(body, StandardCharsets.UTF_8)));
        }
        return text.append("  (").append(flaw).append(')').toString();
    }

    static String shortened(String text) {
        String oneLine = text.replace("\r", "\\r").replace("\n", "\\n");
        return oneLine.length() <= 120 ? oneLine : oneLine.substring(0, 100) + "…(" + oneLine.length() + " chars)";
    }
}
