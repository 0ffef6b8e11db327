package org.llmplatform.tracing.refs;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * A ref string parsed by the grammar of docs/tracing-service.md#ref-grammar:
 * {@code weave:///<entity>/<project>/(object|op)/<name>:<version>[/<edge>/<value>]*},
 * {@code .../table/<digest>[/id/<row>]}, {@code .../call/<id>}. Extra values are percent-decoded.
 */
public record ParsedRef(String entity, String project, Kind kind, String name, String version, List<Edge> extra) {

    public static final String SCHEME = "weave:///";

    public enum Kind { OBJECT, OP, TABLE, CALL }

    public record Edge(String edge, String value) {
    }

    private static final Set<String> EDGES = Set.of("key", "attr", "index", "id");

    /** The parsed ref, or empty when {@code text} does not follow the grammar. */
    public static Optional<ParsedRef> parse(String text) {
        if (text == null || !text.startsWith(SCHEME)) {
            return Optional.empty();
        }
        String[] parts = text.substring(SCHEME.length()).split("/", -1);
        if (parts.length < 4 || parts[0].isEmpty() || parts[1].isEmpty() || parts[3].isEmpty()) {
            return Optional.empty();
        }
        Kind kind;
        switch (parts[2]) {
            case "object" -> kind = Kind.OBJECT;
            case "op" -> kind = Kind.OP;
            case "table" -> kind = Kind.TABLE;
            case "call" -> kind = Kind.CALL;
            default -> {
                return Optional.empty();
            }
        }
        String name = parts[3];
        String version = null;
        if (kind == Kind.OBJECT || kind == Kind.OP) {
            int colon = parts[3].indexOf(':');
            if (colon <= 0 || colon == parts[3].length() - 1 || parts[3].indexOf(':', colon + 1) >= 0) {
                return Optional.empty();
            }
            name = parts[3].substring(0, colon);
            version = parts[3].substring(colon + 1);
        } else if (parts[3].contains(":")) {
            return Optional.empty();
        }
        if ((parts.length - 4) % 2 != 0) {
            return Optional.empty();
        }
        List<Edge> extra = new ArrayList<>();
        for (int i = 4; i < parts.length; i += 2) {
            if (!EDGES.contains(parts[i])) {
                return Optional.empty();
            }
            Optional<String> value = percentDecode(parts[i + 1]);
            if (value.isEmpty()) {
                return Optional.empty();
            }
            extra.add(new Edge(parts[i], value.get()));
        }
        return Optional.of(new ParsedRef(parts[0], parts[1], kind, name, version, List.copyOf(extra)));
    }

    public String projectId() {
        return entity + "/" + project;
    }

    public boolean isObjectOrOp() {
        return kind == Kind.OBJECT || kind == Kind.OP;
    }

    /** Python's {@code unquote}: {@code %XX} sequences as UTF-8, everything else (including {@code +}) as is. */
    private static Optional<String> percentDecode(String value) {
        if (value.indexOf('%') < 0) {
            return Optional.of(value);
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        byte[] raw = value.getBytes(StandardCharsets.UTF_8);
        for (int i = 0; i < raw.length; i++) {
            if (raw[i] == '%') {
                if (i + 2 >= raw.length) {
                    return Optional.empty();
                }
                int high = Character.digit(raw[i + 1], 16);
                int low = Character.digit(raw[i + 2], 16);
                if (high < 0 || low < 0) {
                    return Optional.empty();
                }
                bytes.write(high << 4 | low);
                i += 2;
            } else {
                bytes.write(raw[i]);
            }
        }
        return Optional.of(bytes.toString(StandardCharsets.UTF_8));
    }
}
