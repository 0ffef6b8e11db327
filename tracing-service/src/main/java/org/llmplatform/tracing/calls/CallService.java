package org.llmplatform.tracing.calls;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quarkus.runtime.annotations.RegisterForReflection;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.llmplatform.support.body.FieldLimits;
import org.llmplatform.support.auth.CurrentPrincipal;
import org.llmplatform.support.error.ApiException;
import org.llmplatform.support.ids.Uuids;
import org.llmplatform.tracing.calls.WeaveSummary.CallFacts;
import org.llmplatform.tracing.common.Timestamps;

/**
 * Starting, ending and reading calls in a project the caller may use. The caller, never the body,
 * is the owner ({@code svc_user_id}) of a call it starts.
 */
@ApplicationScoped
public class CallService {

    static final int MAX_OP_NAME_LENGTH = FieldLimits.NAME;
    static final int MAX_DISPLAY_NAME_LENGTH = FieldLimits.DISPLAY_NAME;
    static final int MAX_DELETED_IDS = 1000;

    @RegisterForReflection
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record CallStarted(String id, String traceId) {
    }

    private final CallStore store;
    private final CallWriteModes modes;
    private final CurrentPrincipal caller;
    private final ObjectMapper json;

    public CallService(CallStore store, CallWriteModes modes, CurrentPrincipal caller, ObjectMapper json) {
        this.store = store;
        this.modes = modes;
        this.caller = caller;
        this.json = json;
    }

    /** The v1 {@code call/start}. */
    public Uni<CallStarted> start(StartedCall start) {
        CallStartRow row = startRow(start, List.of("body", "start"));
        return modes.requireLegacyWrites(List.of(row.projectId()))
                .chain(() -> store.start(row)).replaceWith(new CallStarted(row.id(), row.traceId()));
    }

    /** The v1 {@code call/end}. Ending an id that has no start yet is accepted: the end waits, invisible, for its start. */
    public Uni<Void> end(EndedCall end) {
        CallEndRow row = endRow(end, List.of("body", "end"));
        return modes.requireLegacyWrites(List.of(row.projectId())).chain(() -> store.end(row));
    }

    /** The v2 {@code call/start}: the v1 start, in the project of the path. */
    public Uni<CallStarted> startV2(String pathProjectId, StartedCall start) {
        List<Object> at = List.of("body", "start");
        CallStartRow row = startRow(start, at);
        requirePathProject(pathProjectId, row.projectId(), loc(at, "project_id"));
        return modes.noteCompleteWrites(List.of(row.projectId()))
                .chain(() -> store.start(row)).replaceWith(new CallStarted(row.id(), row.traceId()));
    }

    /** The v2 {@code call/end}: the v1 end (its {@code started_at}, which only locates the row, is ignored). */
    public Uni<Void> endV2(String pathProjectId, EndedCall end) {
        List<Object> at = List.of("body", "end");
        CallEndRow row = endRow(end, at);
        requirePathProject(pathProjectId, row.projectId(), loc(at, "project_id"));
        return modes.noteCompleteWrites(List.of(row.projectId())).chain(() -> store.end(row));
    }

    /**
     * {@code calls/complete}: every call is a start and an end written as one row, through the batch write of
     * {@code call/upsert_batch} (so the merge rules and a resend behave the same). Every item is validated first.
     */
    public Uni<Void> complete(String pathProjectId, List<CompletedCall> batch) {
        requirePresent(batch, List.of("body", "batch"));
        List<CallStartRow> starts = new ArrayList<>();
        List<CallEndRow> ends = new ArrayList<>();
        for (int i = 0; i < batch.size(); i++) {
            List<Object> at = List.of("body", "batch", i);
            CompletedCall call = batch.get(i);
            requirePresent(call, at);
            requirePresent(call.projectId(), at, "project_id");
            requirePresent(call.id(), at, "id");
            requirePresent(call.traceId(), at, "trace_id");
            CallStartRow start = startRow(call.start(), at);
            requirePathProject(pathProjectId, start.projectId(), loc(at, "project_id"));
            starts.add(start);
            ends.add(endRow(call.end(), at));
        }
        return modes.noteCompleteWrites(starts.stream().map(CallStartRow::projectId).toList())
                .chain(() -> store.writeBatch(starts, ends));
    }

    /**
     * Validates every item first (so a bad item writes nothing), then writes all parts in one
     * transaction. The results follow the items' order: {@code {id, trace_id}} per start, {@code {}} per end.
     */
    public Uni<List<Object>> upsertBatch(List<BatchPart> batch) {
        requirePresent(batch, List.of("body", "batch"));
        List<CallStartRow> starts = new ArrayList<>();
        List<CallEndRow> ends = new ArrayList<>();
        List<Object> results = new ArrayList<>();
        for (int i = 0; i < batch.size(); i++) {
            BatchPart part = batch.get(i);
            List<Object> at = List.of("body", "batch", i, "req");
            if (part.start() != null) {
                CallStartRow row = startRow(part.start(), loc(at, "start"));
                starts.add(row);
                results.add(new CallStarted(row.id(), row.traceId()));
            } else {
                ends.add(endRow(part.end(), loc(at, "end")));
                results.add(Map.of());
            }
        }
        List<String> projects = new ArrayList<>();
        starts.forEach(start -> projects.add(start.projectId()));
        ends.forEach(end -> projects.add(end.projectId()));
        return modes.requireLegacyWrites(projects).chain(() -> store.writeBatch(starts, ends)).replaceWith(results);
    }

    /** One item of {@code /call/upsert_batch}, reduced to the part it carries (exactly one is set). */
    public record BatchPart(StartedCall start, EndedCall end) {
    }

    /** Renames a call; an empty name clears it. An unknown id is accepted and stays invisible. */
    public Uni<Void> update(String projectId, String callId, String displayName) {
        List<Object> at = List.of("body");
        requirePresent(projectId, at, "project_id");
        requirePresent(callId, at, "call_id");
        String project = caller.requireProject(projectId).toString();
        if (displayName == null) {
            throw ApiException.badRequest("One of [display_name] is required for call update");
        }
        checkLength(displayName, MAX_DISPLAY_NAME_LENGTH, loc(at, "display_name"));
        return store.rename(project, callId, displayName, OffsetDateTime.now(ZoneOffset.UTC).truncatedTo(ChronoUnit.MICROS));
    }

    /** Deletes the calls and all their descendants (never their parents); the count includes every requested id. */
    public Uni<Long> delete(String projectId, List<String> callIds) {
        List<Object> at = List.of("body");
        requirePresent(projectId, at, "project_id");
        requirePresent(callIds, at, "call_ids");
        String project = caller.requireProject(projectId).toString();
        if (callIds.size() > MAX_DELETED_IDS) {
            throw new ApiException(413, "Request too large");
        }
        for (int i = 0; i < callIds.size(); i++) {
            requirePresent(callIds.get(i), loc(loc(at, "call_ids"), i));
        }
        return store.deleteWithDescendants(project, callIds);
    }

    private CallStartRow startRow(StartedCall start, List<Object> at) {
        requirePresent(start, at);
        requirePresent(start.projectId(), at, "project_id");
        requirePresent(start.opName(), at, "op_name");
        requirePresent(start.startedAt(), at, "started_at");
        requirePresent(start.attributes(), at, "attributes");
        requirePresent(start.inputs(), at, "inputs");
        String projectId = caller.requireProject(start.projectId()).toString();
        checkOpName(start.opName(), loc(at, "op_name"));
        checkLength(start.displayName(), MAX_DISPLAY_NAME_LENGTH, loc(at, "display_name"));
        OffsetDateTime startedAt = Timestamps.parse(start.startedAt(), loc(at, "started_at"));
        List<String> fitted = OversizedColumns.fit(start.attributes().toString(), start.inputs().toString());
        return new CallStartRow(projectId, orNewId(start.id()), orNewId(start.traceId()), start.parentId(),
                start.threadId(), start.turnId(), start.opName(), start.displayName(),
                writtenAtIfSet(start.displayName()), startedAt, fitted.get(0), fitted.get(1),
                WeaveRefs.collect(start.inputs()), caller.get().userName(),
                start.svcRunId(), start.svcRunStep(), jsonOrNull(start.otelDump()));
    }

    private CallEndRow endRow(EndedCall end, List<Object> at) {
        requirePresent(end, at);
        requirePresent(end.projectId(), at, "project_id");
        requirePresent(end.id(), at, "id");
        requirePresent(end.endedAt(), at, "ended_at");
        requirePresent(end.summary(), at, "summary");
        String projectId = caller.requireProject(end.projectId()).toString();
        OffsetDateTime endedAt = Timestamps.parse(end.endedAt(), loc(at, "ended_at"));
        JsonNode output = end.output() == null || end.output().isNull() ? null : end.output();
        List<String> fitted = OversizedColumns.fit(jsonOrNull(output), end.summary().toString());
        return new CallEndRow(projectId, end.id(), endedAt, end.exception(), fitted.get(0),
                WeaveRefs.collect(output), fitted.get(1), end.svcRunStepEnd());
    }

    /** The call as reads return it, with the derived {@code summary.weave}. */
    public CallSchema toSchema(StoredCall call) {
        String displayName = call.displayName() == null || call.displayName().isEmpty() ? null : call.displayName();
        ObjectNode summary = WeaveSummary.derive(storedSummary(call.summaryJson()),
                new CallFacts(call.opName(), displayName, call.startedAt(), call.endedAt(), call.exception()));
        return new CallSchema(call.id(), call.projectId(), call.opName(), displayName, call.traceId(),
                call.parentId(), call.threadId(), call.turnId(), Timestamps.format(call.startedAt()),
                call.attributesJson(), call.inputsJson(), Timestamps.format(call.endedAt()), call.exception(),
                call.outputJson(), summary, call.svcUserId(), call.svcRunId(), call.svcRunStep(),
                call.svcRunStepEnd(), Timestamps.format(call.deletedAt()), call.storageSizeBytes(),
                call.totalStorageSizeBytes(), Timestamps.format(call.expireAt()));
    }

    private ObjectNode storedSummary(String summaryJson) {
        if (summaryJson == null) {
            return null;
        }
        try {
            return json.readTree(summaryJson) instanceof ObjectNode summary ? summary : null;
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a stored call summary is not JSON", e);
        }
    }

    /** A v2 body names the project of its path, which the caller's access was checked on. */
    private static void requirePathProject(String pathProjectId, String projectId, List<Object> loc) {
        if (!pathProjectId.equals(projectId)) {
            throw ApiException.invalidField("value_error", loc,
                    "project_id must be the project of the path, '" + pathProjectId + "'", projectId);
        }
    }

    private static void checkOpName(String opName, List<Object> loc) {
        if (WeaveRefs.looksLikeRef(opName)) {
            if (!WeaveRefs.isOpRef(opName)) {
                throw ApiException.invalidField("value_error", loc,
                        "op_name looks like a ref but is not an op ref (weave:///entity/project/op/name:digest)", opName);
            }
            return;
        }
        checkLength(opName, MAX_OP_NAME_LENGTH, loc);
    }

    private static void checkLength(String value, int max, List<Object> loc) {
        if (value != null && value.length() > max) {
            throw ApiException.invalidField("string_too_long", loc, "String should have at most " + max + " characters", value);
        }
    }

    private static OffsetDateTime writtenAtIfSet(String displayName) {
        return displayName == null ? null : OffsetDateTime.now(ZoneOffset.UTC).truncatedTo(ChronoUnit.MICROS);
    }

    private static String orNewId(String id) {
        return id == null || id.isBlank() ? Uuids.v7().toString() : id;
    }

    private static String jsonOrNull(JsonNode value) {
        return value == null ? null : value.toString();
    }

    private static void requirePresent(Object value, List<Object> at, String field) {
        if (value == null) {
            throw ApiException.invalidField("missing", loc(at, field), "Field required", null);
        }
    }

    private static void requirePresent(Object value, List<Object> loc) {
        if (value == null) {
            throw ApiException.invalidField("missing", loc, "Field required", null);
        }
    }

    private static List<Object> loc(List<Object> at, Object field) {
        List<Object> loc = new ArrayList<>(at);
        loc.add(field);
        return loc;
    }
}
