package org.llmplatform.tracing.feedback;

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
import java.util.UUID;
import org.llmplatform.support.auth.CurrentPrincipal;
import org.llmplatform.support.error.ApiException;
import org.llmplatform.tracing.common.StoredJson;
import org.llmplatform.tracing.common.Timestamps;
import org.llmplatform.tracing.query.Expr.Compare;
import org.llmplatform.tracing.query.Expr.Comparison;
import org.llmplatform.tracing.query.Expr.GetField;
import org.llmplatform.tracing.query.Expr.Literal;
import org.llmplatform.tracing.query.Expr.Operation;
import org.llmplatform.tracing.query.Expr.Or;
import org.llmplatform.tracing.query.ExprParser;
import org.llmplatform.tracing.query.RowsQuery;
import org.llmplatform.tracing.queues.AnnotationQueueService;
import org.llmplatform.tracing.queues.AnnotationQueueStore.QueueKey;

/** Creating, querying, purging and replacing feedback (docs/tracing-service.md#feedback); the caller is always the owner. */
@ApplicationScoped
public class FeedbackService {

    @RegisterForReflection
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record FeedbackCreated(String id, String createdAt, String svcUserId, JsonNode payload) {
    }

    private final FeedbackStore store;
    private final CurrentPrincipal caller;
    private final ObjectMapper json;
    private final AnnotationSpecs annotationSpecs;
    private final AnnotationQueueService queues;

    public FeedbackService(FeedbackStore store, CurrentPrincipal caller, ObjectMapper json, AnnotationSpecs annotationSpecs,
            AnnotationQueueService queues) {
        this.store = store;
        this.caller = caller;
        this.json = json;
        this.annotationSpecs = annotationSpecs;
        this.queues = queues;
    }

    public Uni<FeedbackCreated> create(NewFeedback feedback) {
        FeedbackRow row = toRow(feedback, List.of("body"));
        return checked(List.of(row), List.of(feedback)).chain(() -> store.insert(List.of(row))).replaceWith(created(row));
    }

    /** Validates every item before writing any; all are written in one transaction. */
    public Uni<List<FeedbackCreated>> createBatch(List<NewFeedback> batch) {
        if (batch == null) {
            throw ApiException.missingField("batch");
        }
        List<FeedbackRow> rows = new ArrayList<>();
        for (int i = 0; i < batch.size(); i++) {
            rows.add(toRow(batch.get(i), List.of("body", "batch", i)));
        }
        return checked(rows, batch).chain(() -> store.insert(rows))
                .replaceWith(rows.stream().map(this::created).toList());
    }

    /** Purges {@code feedbackId}, then creates the rest of the request (a new id unless one is given). */
    public Uni<FeedbackCreated> replace(String feedbackId, NewFeedback feedback) {
        if (feedbackId == null) {
            throw ApiException.missingField("feedback_id");
        }
        FeedbackRow row = toRow(feedback, List.of("body"));
        return checked(List.of(row), List.of(feedback)).chain(() -> store.replace(row.projectId(), feedbackId, row))
                .replaceWith(created(row));
    }

    /** Only queries naming ids are accepted, so a purge can never take more than was meant. */
    public Uni<Void> purge(String projectId, JsonNode query) {
        String project = project(projectId);
        if (query == null || query.isNull()) {
            throw ApiException.missingField("query");
        }
        Operation operation = ExprParser.parseQuery(query);
        return store.purge(project, purgedIds(operation));
    }

    public Uni<List<JsonNode>> query(RowsQuery query) {
        project(query.projectId());
        return store.query(query).map(rows -> rows.stream().map(this::parse).toList());
    }

    private FeedbackRow toRow(NewFeedback feedback, List<Object> at) {
        if (feedback == null) {
            throw ApiException.invalidField("missing", at, "Field required", null);
        }
        requirePresent(feedback.projectId(), at, "project_id");
        requirePresent(feedback.weaveRef(), at, "weave_ref");
        requirePresent(feedback.feedbackType(), at, "feedback_type");
        requirePresent(feedback.payload(), at, "payload");
        String project = project(feedback.projectId());
        ScorerFields scorer = ScorerFields.checked(feedback.scorer(), at);
        ObjectNode payload = FeedbackRules.check(feedback, scorer);
        String id = feedback.id() == null || feedback.id().isBlank() ? UUID.randomUUID().toString() : feedback.id();
        return new FeedbackRow(project, id, feedback.weaveRef(), caller.get().userName(), feedback.creator(),
                OffsetDateTime.now(ZoneOffset.UTC).truncatedTo(ChronoUnit.MICROS), feedback.feedbackType(),
                payload.toString(), feedback.annotationRef(), feedback.runnableRef(), feedback.callRef(),
                feedback.triggerRef(), feedback.queueId(), scorer);
    }

    /** What needs a read, after every item's own checks: annotation specs, then the queues given through. */
    private Uni<Void> checked(List<FeedbackRow> rows, List<NewFeedback> feedback) {
        return annotationSpecs.check(feedback).chain(() -> {
            List<QueueKey> named = rows.stream().filter(row -> row.queueId() != null && !row.queueId().isEmpty())
                    .map(row -> new QueueKey(row.projectId(), row.queueId())).toList();
            return queues.live(named).invoke(live -> {
                for (QueueKey queue : named) {
                    if (!live.contains(queue)) {
                        throw ApiException.badRequest("Queue " + queue.queueId() + " not found or has been deleted");
                    }
                }
            });
        }).replaceWithVoid();
    }

    private FeedbackCreated created(FeedbackRow row) {
        return new FeedbackCreated(row.id(), Timestamps.format(row.createdAt()), row.svcUserId(), parse(row.payloadJson()));
    }

    private String project(String projectId) {
        return caller.requireProject(projectId).toString();
    }

    /** The ids of {@code id == "x"} or an {@code $or} of such comparisons; anything else is refused. */
    private static List<String> purgedIds(Operation operation) {
        List<Operation> terms = operation instanceof Or or ? or.operands() : List.of(operation);
        List<String> ids = new ArrayList<>();
        for (Operation term : terms) {
            String id = idEquality(term);
            if (id == null) {
                throw ApiException.badRequest("Can only purge feedback by specifying one or more feedback ids");
            }
            ids.add(id);
        }
        return ids;
    }

    private static String idEquality(Operation term) {
        if (term instanceof Compare compare && compare.comparison() == Comparison.EQ
                && compare.left() instanceof GetField field && field.path().equals("id")
                && compare.right() instanceof Literal literal && literal.value().isTextual()) {
            return literal.value().textValue();
        }
        return null;
    }

    private JsonNode parse(String text) {
        return StoredJson.parse(json, text);
    }

    private static void requirePresent(Object value, List<Object> at, String field) {
        if (value == null) {
            List<Object> loc = new ArrayList<>(at);
            loc.add(field);
            throw ApiException.invalidField("missing", loc, "Field required", null);
        }
    }
}
