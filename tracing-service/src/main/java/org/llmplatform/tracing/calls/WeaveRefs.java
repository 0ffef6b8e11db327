package org.llmplatform.tracing.calls;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Just enough of the ref grammar (docs/tracing-service.md#ref-grammar) for calls: spotting refs, op refs and their names. */
public final class WeaveRefs {

    static final String PREFIX = "weave:///";

    private static final String EXTRA = "(?:/(?:key|attr|index|id)/[^/]+)*";
    private static final Pattern OP_REF = Pattern.compile("weave:///[^/]+/[^/]+/op/[^/:]+:[^/:]+" + EXTRA);
    private static final Pattern OBJECT_OR_OP_NAME = Pattern.compile("weave:///[^/]+/[^/]+/(?:object|op)/([^/:]+):[^/:]+(?:/.*)?");

    /** True for a string the server treats as a ref (the reference only checks the scheme prefix). */
    public static boolean looksLikeRef(String value) {
        return value.startsWith(PREFIX);
    }

    public static boolean isOpRef(String value) {
        return OP_REF.matcher(value).matches();
    }

    /** The {@code <name>} of an object or op ref. */
    public static Optional<String> objectName(String ref) {
        Matcher matcher = OBJECT_OR_OP_NAME.matcher(ref);
        return matcher.matches() ? Optional.of(matcher.group(1)) : Optional.empty();
    }

    /** Every ref string at any depth of a JSON value, each once, in document order. */
    public static List<String> collect(JsonNode value) {
        Set<String> refs = new LinkedHashSet<>();
        collect(value, refs);
        return new ArrayList<>(refs);
    }

    private static void collect(JsonNode value, Set<String> refs) {
        if (value == null) {
            return;
        }
        if (value.isTextual() && looksLikeRef(value.textValue())) {
            refs.add(value.textValue());
        } else if (value.isContainerNode()) {
            value.elements().forEachRemaining(element -> collect(element, refs));
        }
    }

    private WeaveRefs() {
    }
}
