package org.llmplatform.support.body;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadFeature;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The fields of one {@link BodyChecks}, compiled into a tree of paths, and one streaming pass over a body that
 * collects the projects and entities it names and the first value over its length limit. Parts of the body no
 * path leads into are skipped without being built into objects.
 */
final class BodyScan {

    /** What a pass found; {@code tooLong} is null when every value fits. */
    record Found(List<String> projectIds, List<String> entities, List<Object> tooLong, int tooLongMax) {
    }

    /** The body is read again after the scan: the parser leaves it open. */
    private static final JsonFactory JSON = JsonFactory.builder().disable(StreamReadFeature.AUTO_CLOSE_SOURCE).build();
    private static final String WEAVE_REF = "weave:///";

    private static final class Node {
        private final Map<String, Node> fields = new HashMap<>();
        private Node elements;
        private boolean projectId;
        private boolean entity;
        private boolean ref;
        private int max = -1;

        private Node at(String path) {
            Node node = this;
            for (String segment : path.split("\\.")) {
                boolean array = segment.endsWith("[]");
                String name = array ? segment.substring(0, segment.length() - 2) : segment;
                node = node.fields.computeIfAbsent(name, unused -> new Node());
                if (array) {
                    node = node.elements == null ? (node.elements = new Node()) : node.elements;
                }
            }
            return node;
        }
    }

    private final Node root = new Node();
    private final List<String> projectHeaders;
    private final List<String> entityParameters;

    BodyScan(BodyChecks checks) {
        projectHeaders = List.of(checks.projectHeaders());
        entityParameters = List.of(checks.entityParameters());
        for (String path : checks.projectIds()) {
            root.at(path).projectId = true;
        }
        for (String path : checks.refs()) {
            root.at(path).ref = true;
        }
        for (String path : checks.entities()) {
            root.at(path).entity = true;
        }
        for (BodyChecks.Limit limit : checks.limits()) {
            root.at(limit.field()).max = limit.max();
        }
        for (BodyChecks.LimitsAt named : checks.limitSets()) {
            for (BodyChecks.Limit limit : limits(named.set())) {
                root.at(named.under().isEmpty() ? limit.field() : named.under() + "." + limit.field()).max = limit.max();
            }
        }
    }

    private static BodyChecks.Limit[] limits(Class<?> set) {
        LimitSet limits = set.getAnnotation(LimitSet.class);
        if (limits == null) {
            throw new IllegalArgumentException(set.getName() + " is no @LimitSet");
        }
        return limits.value();
    }

    List<String> projectHeaders() {
        return projectHeaders;
    }

    /** Whether any check looks into the body: a method that takes none has none buffered to look into. */
    boolean readsBody() {
        return !root.fields.isEmpty();
    }

    List<String> entityParameters() {
        return entityParameters;
    }

    /** Reads {@code body} once; what precedes a syntax error is still reported (the resource refuses the rest). */
    Found scan(InputStream body) {
        Collector found = new Collector();
        try (JsonParser parser = JSON.createParser(body)) {
            if (parser.nextToken() != null) {
                visit(parser, root, new ArrayList<>(List.of("body")), found);
            }
        } catch (IOException notJson) {
            // Left to the resource's own parsing, which names the flaw.
        }
        return new Found(found.projectIds, found.entities, found.tooLong, found.tooLongMax);
    }

    private static final class Collector {
        private final List<String> projectIds = new ArrayList<>();
        private final List<String> entities = new ArrayList<>();
        private List<Object> tooLong;
        private int tooLongMax;
    }

    /** The {@code entity/project} of a {@code weave:///entity/project/...} ref; empty for anything else. */
    static Optional<String> refProject(String ref) {
        if (!ref.startsWith(WEAVE_REF)) {
            return Optional.empty();
        }
        String[] parts = ref.substring(WEAVE_REF.length()).split("/", 3);
        return parts.length < 2 ? Optional.empty() : Optional.of(parts[0] + "/" + parts[1]);
    }

    private static void visit(JsonParser parser, Node node, List<Object> loc, Collector found) throws IOException {
        JsonToken token = parser.currentToken();
        if (token == JsonToken.START_OBJECT) {
            while (parser.nextToken() == JsonToken.FIELD_NAME) {
                String name = parser.currentName();
                parser.nextToken();
                Node child = node.fields.get(name);
                if (child == null) {
                    parser.skipChildren();
                } else {
                    loc.add(name);
                    visit(parser, child, loc, found);
                    loc.remove(loc.size() - 1);
                }
            }
        } else if (token == JsonToken.START_ARRAY) {
            int index = 0;
            while (parser.nextToken() != JsonToken.END_ARRAY) {
                if (node.elements == null) {
                    parser.skipChildren();
                } else {
                    loc.add(index);
                    visit(parser, node.elements, loc, found);
                    loc.remove(loc.size() - 1);
                }
                index++;
            }
        } else if (token == JsonToken.VALUE_STRING) {
            if (node.max >= 0 && found.tooLong == null && parser.getTextLength() > node.max) {
                found.tooLong = List.copyOf(loc);
                found.tooLongMax = node.max;
            }
            if (node.projectId && parser.getTextLength() <= FieldLimits.PROJECT_ID) {
                found.projectIds.add(parser.getText());
            }
            if (node.ref && parser.getTextLength() <= FieldLimits.REF) {
                refProject(parser.getText()).ifPresent(found.projectIds::add);
            }
            if (node.entity && parser.getTextLength() <= FieldLimits.NAME) {
                found.entities.add(parser.getText());
            }
        }
    }
}
