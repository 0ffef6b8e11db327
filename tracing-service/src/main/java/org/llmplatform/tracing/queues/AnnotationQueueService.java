package org.llmplatform.tracing.queues;

import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.llmplatform.support.auth.CurrentPrincipal;
import org.llmplatform.support.body.FieldLimits;
import org.llmplatform.support.error.ApiException;
import org.llmplatform.support.ids.Uuids;
import org.llmplatform.tracing.query.Page;
import org.llmplatform.tracing.query.SortBy;
import org.llmplatform.tracing.query.SortKey;
import org.llmplatform.tracing.queues.AnnotationQueueQueries.ItemsFilter;
import org.llmplatform.tracing.queues.AnnotationQueueStore.QueueKey;

/**
 * Annotation queues (docs/tracing-service.md#annotation-queues): the reference's checks, messages and counts; the
 * caller is the creator, the one who adds calls and the annotator whose progress moves.
 */
@ApplicationScoped
public class AnnotationQueueService {

    private final AnnotationQueueStore store;
    private final CurrentPrincipal caller;

    public AnnotationQueueService(AnnotationQueueStore store, CurrentPrincipal caller) {
        this.store = store;
        this.caller = caller;
    }

    /** The new queue's id. */
    public Uni<String> create(String projectId, String name, String description, List<String> scorerRefs) {
        String project = project(projectId, "body");
        required(name, "name");
        strings(required(scorerRefs, "scorer_refs"), "scorer_refs");
        OffsetDateTime now = now();
        AnnotationQueueSchema queue = new AnnotationQueueSchema(Uuids.v7().toString(), project, name,
                description == null ? "" : description, scorerRefs, null, caller.get().userName(), null, null);
        return store.insert(queue, now).replaceWith(queue.id());
    }

    public Multi<AnnotationQueueSchema> query(String projectId, String name, List<SortBy> sortBy, Long limit,
            Long offset) {
        String project = project(projectId, "body");
        return store.query(AnnotationQueueQueries.queues(project, name, sortKeys(sortBy), Page.of(limit, offset)));
    }

    /** {@code project_id} comes in the query string here: it is checked before the queue id is. */
    public Uni<AnnotationQueueSchema> read(String projectId, String queueId) {
        String project = project(projectId, "query");
        queueId(queueId);
        return store.read(project, queueId).onItem().ifNull()
                .failWith(() -> ApiException.notFound("Queue " + queueId + " not found"));
    }

    /** Sets the fields given; with none, the queue as it is (its {@code updated_at} unchanged). */
    public Uni<AnnotationQueueSchema> update(String queueId, String projectId, String name, String description,
            List<String> scorerRefs) {
        String project = project(projectId, "body");
        queueId(queueId);
        if (scorerRefs != null) {
            strings(scorerRefs, "scorer_refs");
        }
        Uni<AnnotationQueueSchema> updated = name == null && description == null && scorerRefs == null
                ? store.read(project, queueId)
                : store.update(project, queueId, name, description, scorerRefs, now());
        return updated.onItem().ifNull().failWith(() -> notLive(queueId));
    }

    /** Soft: the queue leaves every listing and read, its items and progress stay as they were. */
    public Uni<AnnotationQueueSchema> delete(String projectId, String queueId) {
        String project = project(projectId, "query");
        queueId(queueId);
        return store.delete(project, queueId, now()).onItem().ifNull().failWith(() -> notLive(queueId));
    }

    public Uni<AddedCalls> addCalls(String queueId, String projectId, List<String> callIds, List<String> displayFields) {
        String project = project(projectId, "body");
        queueId(queueId);
        strings(required(callIds, "call_ids"), "call_ids");
        strings(required(displayFields, "display_fields"), "display_fields");
        return store.addCalls(project, queueId, callIds, displayFields, caller.get().userName(), now());
    }

    public Uni<List<AnnotationQueueItemSchema>> items(String queueId, String projectId, ItemsFilter filter,
            List<SortBy> sortBy, Long limit, Long offset, boolean withPosition) {
        String project = project(projectId, "body");
        queueId(queueId);
        List<String> states = filter.annotationStates();
        for (int i = 0; states != null && i < states.size(); i++) {
            if (!AnnotationProgress.STATES.contains(states.get(i))) {
                throw ApiException.invalidField("literal_error", List.of("body", "filter", "annotation_states", i),
                        "Input should be 'unstarted', 'in_progress', 'completed' or 'skipped'", states.get(i));
            }
        }
        return store.items(AnnotationQueueQueries.items(project, queueId, filter, sortKeys(sortBy),
                Page.of(limit, offset), withPosition), withPosition);
    }

    public Uni<List<AnnotationQueueStatsSchema>> stats(String projectId, List<String> queueIds) {
        String project = project(projectId, "body");
        strings(required(queueIds, "queue_ids"), "queue_ids");
        return queueIds.isEmpty() ? Uni.createFrom().item(List.of()) : store.stats(project, queueIds);
    }

    /** Moves the caller's progress on the item (see {@link AnnotationProgress}); the item as it is afterwards. */
    public Uni<AnnotationQueueItemSchema> progress(String queueId, String itemId, String projectId, String state) {
        String project = project(projectId, "body");
        queueId(queueId);
        FieldLimits.check(itemId, FieldLimits.ID, "path", "item_id");
        AnnotationProgress.checkSettable(required(state, "annotation_state"));
        String annotator = caller.get().userName();
        return store.progressOf(project, itemId, annotator).chain(current -> {
            AnnotationProgress.Step step = AnnotationProgress.step(current, state);
            if (step == AnnotationProgress.Step.UNCHANGED) {
                return Uni.createFrom().voidItem();
            }
            return store.itemExists(project, queueId, itemId).chain(exists -> {
                if (!exists) {
                    throw ApiException.badRequest("Queue item '" + itemId + "' not found in queue '" + queueId + "'");
                }
                return step == AnnotationProgress.Step.CREATE
                        ? store.createProgress(project, queueId, itemId, annotator, state, now())
                        : store.updateProgress(project, itemId, annotator, state, now());
            });
        }).chain(() -> item(project, queueId, itemId));
    }

    /** Which of the queues exist and are not deleted, for feedback given through one. */
    public Uni<Set<QueueKey>> live(List<QueueKey> queues) {
        return queues.isEmpty() ? Uni.createFrom().item(Set.of()) : store.live(queues);
    }

    private Uni<AnnotationQueueItemSchema> item(String project, String queueId, String itemId) {
        ItemsFilter byId = new ItemsFilter(itemId, null, null, null, null, null);
        return store.items(AnnotationQueueQueries.items(project, queueId, byId, null, new Page(1L, null), false), false)
                .map(items -> {
                    if (items.isEmpty()) {
                        throw ApiException.badRequest("Failed to fetch queue item '" + itemId + "'");
                    }
                    return items.get(0);
                });
    }

    private String project(String projectId, String where) {
        if (projectId == null) {
            throw ApiException.invalidField("missing", List.of(where, "project_id"), "Field required", null);
        }
        return caller.requireProject(projectId).toString();
    }

    private static void queueId(String queueId) {
        FieldLimits.check(queueId, FieldLimits.ID, "path", "queue_id");
    }

    private static <T> T required(T value, String field) {
        if (value == null) {
            throw ApiException.missingField(field);
        }
        return value;
    }

    private static void strings(List<String> values, String field) {
        for (int i = 0; i < values.size(); i++) {
            if (values.get(i) == null) {
                throw ApiException.invalidField("string_type", List.of("body", field, i), "Input should be a valid string",
                        null);
            }
        }
    }

    /** Keys on fields a listing does not sort by are dropped by the query; a direction must be asc or desc. */
    private static List<SortKey> sortKeys(List<SortBy> sortBy) {
        List<SortKey> keys = new ArrayList<>();
        for (int i = 0; sortBy != null && i < sortBy.size(); i++) {
            SortBy key = sortBy.get(i);
            if (key == null || key.field() == null) {
                throw ApiException.invalidField("missing", List.of("body", "sort_by", i, "field"), "Field required", null);
            }
            if (!"asc".equals(key.direction()) && !"desc".equals(key.direction())) {
                throw ApiException.invalidField("literal_error", List.of("body", "sort_by", i, "direction"),
                        "Input should be 'asc' or 'desc'", key.direction());
            }
            keys.add(new SortKey(key.field(), key.direction().equals("desc")));
        }
        return keys;
    }

    private static ApiException notLive(String queueId) {
        return ApiException.notFound("Queue " + queueId + " not found or already deleted");
    }

    private static OffsetDateTime now() {
        return OffsetDateTime.now(ZoneOffset.UTC).truncatedTo(ChronoUnit.MICROS);
    }
}
