package org.llmplatform.tracing.calls;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.llmplatform.tracing.common.StoredJson;
import org.llmplatform.tracing.refs.ParsedRef;
import org.llmplatform.tracing.refs.RefResolver;
import org.llmplatform.tracing.refs.RefResolver.Root;

/**
 * {@code expand_columns} of calls queries (docs/tracing-service.md#calls-query): shallowest column first, an object or op
 * ref at that dotted path of a call is replaced by the value it names, which gets {@code _ref} (the
 * ref) when it is an object without one. Refs to tables or calls, to other projects, or to versions
 * that are missing or deleted stay as they are. Calls are expanded in batches of {@link #BATCH}.
 */
@ApplicationScoped
public class CallExpansion {

    static final int BATCH = 100;

    private final RefResolver refs;
    private final ObjectMapper json;

    public CallExpansion(RefResolver refs, ObjectMapper json) {
        this.refs = refs;
        this.json = json;
    }

    public Multi<CallSchema> expand(Multi<CallSchema> calls, List<String> expandColumns, Boolean returnValues) {
        if (expandColumns == null || expandColumns.isEmpty() || Boolean.FALSE.equals(returnValues)) {
            return calls;
        }
        List<List<String>> paths = CallFields.expandedPaths(expandColumns);
        if (paths.isEmpty()) {
            return calls;
        }
        return calls.group().intoLists().of(BATCH)
                .onItem().transformToUniAndConcatenate(batch -> expandBatch(batch, paths))
                .onItem().disjoint();
    }

    /** One call's expandable columns as trees, written back into the call at the end. */
    private final class Columns {
        final CallSchema call;
        final Map<String, JsonNode> trees = new LinkedHashMap<>();

        Columns(CallSchema call) {
            this.call = call;
            trees.put("inputs", parse(call.inputs()));
            trees.put("output", parse(call.output()));
            trees.put("attributes", parse(call.attributes()));
        }

        CallSchema written() {
            return new CallSchema(call.id(), call.projectId(), call.opName(), call.displayName(), call.traceId(),
                    call.parentId(), call.threadId(), call.turnId(), call.startedAt(), text(trees.get("attributes")),
                    text(trees.get("inputs")), call.endedAt(), call.exception(), text(trees.get("output")), call.summary(),
                    call.svcUserId(), call.svcRunId(), call.svcRunStep(), call.svcRunStepEnd(), call.deletedAt(),
                    call.storageSizeBytes(), call.totalStorageSizeBytes(), call.expireAt());
        }
    }

    private Uni<List<CallSchema>> expandBatch(List<CallSchema> batch, List<List<String>> paths) {
        List<Columns> columns = batch.stream().map(Columns::new).toList();
        Uni<Void> done = Uni.createFrom().voidItem();
        for (List<String> path : paths) {
            done = done.chain(() -> expandPath(columns, path));
        }
        return done.map(ignored -> columns.stream().map(Columns::written).toList());
    }

    /** A ref found at a path, and where to put its value. */
    private record Slot(Columns columns, List<String> path, String ref, ParsedRef parsed) {
    }

    private Uni<Void> expandPath(List<Columns> columns, List<String> path) {
        List<Slot> slots = new ArrayList<>();
        for (Columns call : columns) {
            JsonNode value = at(call.trees.get(path.get(0)), path.subList(1, path.size()));
            if (value == null || !value.isTextual()) {
                continue;
            }
            Optional<ParsedRef> parsed = ParsedRef.parse(value.textValue());
            if (parsed.isPresent() && parsed.get().isObjectOrOp() && !parsed.get().version().equals("latest")
                    && parsed.get().projectId().equals(call.call.projectId())) {
                slots.add(new Slot(call, path, value.textValue(), parsed.get()));
            }
        }
        if (slots.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        return refs.roots(slots.stream().map(Slot::parsed).toList()).chain(roots -> {
            List<Uni<Void>> writes = new ArrayList<>();
            for (int i = 0; i < slots.size(); i++) {
                Slot slot = slots.get(i);
                if (roots.get(i) instanceof Root.Found found) {
                    writes.add(refs.walk(slot.parsed().projectId(), found.value(), slot.parsed().extra())
                            .onFailure().recoverWithNull()
                            .invoke(value -> place(slot, value)).replaceWithVoid());
                }
            }
            return writes.isEmpty() ? Uni.createFrom().voidItem() : Uni.join().all(writes).andFailFast().replaceWithVoid();
        });
    }

    private void place(Slot slot, JsonNode value) {
        if (value == null || value.isNull()) {
            return;
        }
        JsonNode expanded = value;
        if (value.isObject() && !value.has("_ref")) {
            ObjectNode withRef = ((ObjectNode) value).deepCopy();
            withRef.put("_ref", slot.ref());
            expanded = withRef;
        }
        List<String> path = slot.path();
        if (path.size() == 1) {
            slot.columns().trees.put(path.get(0), expanded);
            return;
        }
        JsonNode parent = at(slot.columns().trees.get(path.get(0)), path.subList(1, path.size() - 1));
        String last = path.get(path.size() - 1);
        if (parent instanceof ObjectNode object) {
            object.set(last, expanded);
        } else if (parent instanceof ArrayNode array && last.matches("\\d{1,9}") && Integer.parseInt(last) < array.size()) {
            array.set(Integer.parseInt(last), expanded);
        }
    }

    private static JsonNode at(JsonNode root, List<String> path) {
        JsonNode current = root;
        for (String step : path) {
            if (current == null) {
                return null;
            }
            if (current.isObject()) {
                current = current.get(step);
            } else if (current.isArray() && step.matches("\\d{1,9}")) {
                current = current.get(Integer.parseInt(step));
            } else {
                return null;
            }
        }
        return current;
    }

    private JsonNode parse(String text) {
        return text == null ? null : StoredJson.parse(json, text);
    }

    private static String text(JsonNode tree) {
        return tree == null ? null : tree.toString();
    }
}
