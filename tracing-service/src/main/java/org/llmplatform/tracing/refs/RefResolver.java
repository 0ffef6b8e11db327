package org.llmplatform.tracing.refs;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.NullNode;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.llmplatform.support.auth.CurrentPrincipal;
import org.llmplatform.support.error.ApiException;
import org.llmplatform.tracing.common.StoredJson;
import org.llmplatform.tracing.refs.ParsedRef.Edge;
import org.llmplatform.tracing.refs.ParsedRef.Kind;

/**
 * Resolves object and op refs (docs/tracing-service.md#ref-resolution): the root version by name and digest, then the extra
 * path, following object and table refs met on the way within the same project. Values inside the
 * result keep their ref strings.
 */
@ApplicationScoped
public class RefResolver {

    public static final int MAX_REFS = 1000;

    /** A root lookup: the version's value, or that it was deleted, or that it does not exist. */
    public sealed interface Root {
        record Found(JsonNode value) implements Root {
        }

        record Deleted() implements Root {
        }

        record Missing(String message) implements Root {
        }
    }

    private final RefRoots roots;
    private final TableRows tables;
    private final CurrentPrincipal caller;
    private final ObjectMapper json;

    public RefResolver(RefRoots roots, TableRows tables, CurrentPrincipal caller, ObjectMapper json) {
        this.roots = roots;
        this.tables = tables;
        this.caller = caller;
        this.json = json;
    }

    /** {@code refs/read_batch}: every ref resolved in order, {@code null} for deleted versions. */
    public Uni<List<JsonNode>> readBatch(List<String> refs) {
        if (refs == null) {
            throw ApiException.missingField("refs");
        }
        if (refs.size() > MAX_REFS) {
            throw ApiException.badRequest("Too many refs: " + refs.size() + " given, at most " + MAX_REFS + " per request");
        }
        List<ParsedRef> parsed = new ArrayList<>(refs.size());
        for (String text : refs) {
            ParsedRef ref = ParsedRef.parse(text).orElseThrow(() -> ApiException.badRequest("Invalid ref: " + text));
            if (ref.kind() == Kind.TABLE) {
                throw ApiException.badRequest("Table refs not supported");
            }
            if (ref.kind() == Kind.CALL) {
                throw ApiException.badRequest("Call refs not supported in batch read, use calls_query_stream");
            }
            if (ref.version().equals("latest")) {
                throw ApiException.badRequest("Reading refs with `latest` is not supported");
            }
            caller.requireProject(ref.projectId());
            parsed.add(ref);
        }
        return roots(parsed).chain(roots -> {
            List<Uni<JsonNode>> values = new ArrayList<>(roots.size());
            for (int i = 0; i < roots.size(); i++) {
                Root root = roots.get(i);
                ParsedRef ref = parsed.get(i);
                if (root instanceof Root.Missing missing) {
                    throw ApiException.notFound(missing.message());
                }
                values.add(root instanceof Root.Found found ? walk(ref.projectId(), found.value(), ref.extra())
                        : Uni.createFrom().item(NullNode.getInstance()));
            }
            return values.isEmpty() ? Uni.createFrom().item(List.<JsonNode>of())
                    : Uni.join().all(values).andFailFast();
        });
    }

    /** The root versions of object/op refs, positionally. */
    public Uni<List<Root>> roots(List<ParsedRef> refs) {
        return roots.roots(refs);
    }

    /**
     * Follows {@code edges} from {@code value}: a ref string met before an edge is loaded first (an
     * object ref from this project, or a table ref followed by {@code id}); a missing key or index is null.
     */
    public Uni<JsonNode> walk(String projectId, JsonNode value, List<Edge> edges) {
        if (edges.isEmpty()) {
            return Uni.createFrom().item(value);
        }
        Optional<ParsedRef> nested = value != null && value.isTextual() ? ParsedRef.parse(value.textValue()) : Optional.empty();
        if (nested.isPresent() && nested.get().kind() != Kind.CALL) {
            return follow(projectId, nested.get(), edges);
        }
        Edge edge = edges.get(0);
        List<Edge> rest = edges.subList(1, edges.size());
        JsonNode next = switch (edge.edge()) {
            case "key", "attr" -> value != null && value.isObject() ? value.get(edge.value()) : null;
            case "index" -> element(value, edge.value());
            default -> throw ApiException.badRequest("Invalid data layout: the id edge '" + edge.value()
                    + "' applies only to a table ref");
        };
        return walk(projectId, next == null ? NullNode.getInstance() : next, rest);
    }

    private Uni<JsonNode> follow(String projectId, ParsedRef ref, List<Edge> edges) {
        if (!ref.projectId().equals(projectId)) {
            return Uni.createFrom().item(NullNode.getInstance());
        }
        List<Edge> path = new ArrayList<>(ref.extra());
        path.addAll(edges);
        if (ref.kind() == Kind.TABLE) {
            Edge id = path.get(0);
            if (!id.edge().equals("id")) {
                throw ApiException.badRequest("Invalid data layout: a table ref must be followed by an id edge, not "
                        + id.edge());
            }
            return tables.rowInTable(projectId, ref.name(), id.value()).chain(row -> {
                String dump = row.orElseThrow(() -> ApiException.notFound("Row digest " + id.value() + " not found"));
                return walk(projectId, StoredJson.parse(json, dump), path.subList(1, path.size()));
            });
        }
        return roots(List.of(ref)).chain(roots -> {
            Root root = roots.get(0);
            if (root instanceof Root.Found found) {
                return walk(projectId, found.value(), path);
            }
            return Uni.createFrom().item(NullNode.getInstance());
        });
    }

    private static JsonNode element(JsonNode value, String index) {
        int position;
        try {
            position = Integer.parseInt(index);
        } catch (NumberFormatException e) {
            throw ApiException.badRequest("Invalid ref: index '" + index + "' is not an integer");
        }
        return value != null && value.isArray() && position >= 0 && position < value.size() ? value.get(position) : null;
    }
}
