package org.llmplatform.tracing.feedback;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;
import io.vertx.pgclient.PgException;
import jakarta.enterprise.context.ApplicationScoped;
import io.vertx.core.json.JsonObject;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.llmplatform.tracing.common.RefusedWriteException;
import org.llmplatform.tracing.query.JsonRows;
import org.llmplatform.tracing.query.QuerySql;
import org.llmplatform.tracing.query.RowsQuery;

/** The SQL over {@code tracing.feedback}. */
@ApplicationScoped
public class FeedbackStore {

    private static final String INSERT = """
            INSERT INTO tracing.feedback (project_id, id, weave_ref, svc_user_id, creator, created_at, feedback_type,
                payload, annotation_ref, runnable_ref, call_ref, trigger_ref, queue_id, scorer_tags, scorer_tag_reasons,
                scorer_tag_confidences, scorer_ratings, scorer_rating_reasons, scorer_rating_confidences, span_agent_name,
                span_agent_version, span_status_code, span_conversation_id, span_trace_id, scorer_trace_id)
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8::text::jsonb, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19,
                $20, $21, $22, $23, $24, $25)""";

    private static final String PURGE = "DELETE FROM tracing.feedback WHERE project_id = $1 AND id = ANY($2::text[])";

    private static final String UNIQUE_VIOLATION = "23505";
    private static final Set<String> NUL_CHARACTER_STATES = Set.of("22021", "22P05");

    private final Pool pool;

    public FeedbackStore(Pool pool) {
        this.pool = pool;
    }

    public Uni<Void> insert(List<FeedbackRow> rows) {
        return pool.withTransaction(tx -> insert(tx, rows));
    }

    /** Removes one feedback and creates its replacement, atomically. */
    public Uni<Void> replace(String projectId, String replacedId, FeedbackRow replacement) {
        return pool.withTransaction(tx -> tx.preparedQuery(PURGE).execute(Tuple.of(projectId, new String[] {replacedId}))
                .chain(() -> insert(tx, List.of(replacement))));
    }

    public Uni<Void> purge(String projectId, List<String> ids) {
        return pool.preparedQuery(PURGE).execute(Tuple.of(projectId, ids.toArray(String[]::new))).replaceWithVoid();
    }

    /** The JSON text of each result row of the query, in its project. */
    public Uni<List<String>> query(RowsQuery query) {
        return JsonRows.query(pool, QuerySql.rows(FeedbackFields.INSTANCE, "f.project_id = %s", query));
    }

    private static Uni<Void> insert(SqlClient client, List<FeedbackRow> rows) {
        List<Tuple> values = rows.stream().map(FeedbackStore::values).toList();
        return client.preparedQuery(INSERT).executeBatch(values)
                .onFailure(PgException.class).transform(failure -> refused((PgException) failure))
                .replaceWithVoid();
    }

    private static Tuple values(FeedbackRow row) {
        ScorerFields scorer = row.scorer();
        return Tuple.from(Arrays.asList(row.projectId(), row.id(), row.weaveRef(), row.svcUserId(), row.creator(),
                row.createdAt(), row.feedbackType(), row.payloadJson(), row.annotationRef(), row.runnableRef(), row.callRef(),
                row.triggerRef(), row.queueId(), scorer.scorerTags().toArray(String[]::new), object(scorer.scorerTagReasons()),
                object(scorer.scorerTagConfidences()), object(scorer.scorerRatings()), object(scorer.scorerRatingReasons()),
                object(scorer.scorerRatingConfidences()), scorer.spanAgentName(), scorer.spanAgentVersion(),
                scorer.spanStatusCode(), scorer.spanConversationId(), scorer.spanTraceId(), scorer.scorerTraceId()));
    }

    private static JsonObject object(Map<String, ?> entries) {
        return new JsonObject(new LinkedHashMap<>(entries));
    }

    private static Throwable refused(PgException failure) {
        if (UNIQUE_VIOLATION.equals(failure.getSqlState())) {
            return RefusedWriteException.duplicateId("A feedback with this id already exists");
        }
        if (NUL_CHARACTER_STATES.contains(failure.getSqlState())) {
            return RefusedWriteException.nulCharacter(null);
        }
        return failure;
    }
}
