package org.llmplatform.tracing.evals;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quarkus.runtime.annotations.RegisterForReflection;
import java.util.List;

/** The bodies of the {@code /v2/{entity}/{project}/...} evaluation routes, as Weave's OpenAPI document names them. */
final class EvalEnvelopes {

    private EvalEnvelopes() {
    }

    @RegisterForReflection
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record OpCreateBody(String name, String sourceCode) {
    }

    @RegisterForReflection
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record DatasetCreateBody(String name, String description, List<JsonNode> rows) {
    }

    @RegisterForReflection
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record ScorerCreateBody(String name, String description, String opSourceCode) {
    }

    @RegisterForReflection
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record EvaluationCreateBody(String name, String description, String dataset, List<String> scorers, Integer trials,
            String evaluationName, ObjectNode evalAttributes) {
    }

    @RegisterForReflection
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record ModelCreateBody(String name, String description, String sourceCode, ObjectNode attributes) {
    }

    @RegisterForReflection
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record EvaluationRunCreateBody(String evaluation, String model, String sourceEvaluationRunId) {
    }

    @RegisterForReflection
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record EvaluationRunFinishBody(ObjectNode summary) {
    }

    /** {@code output} is required but may be JSON null, so whether it was sent is kept apart. */
    @RegisterForReflection
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record PredictionCreateBody(String model, ObjectNode inputs, JsonNode output, String evaluationRunId,
            List<GenAiSpanRef> genaiSpanRef) {
    }

    /** A span of a GenAI trace that a prediction produced. */
    @RegisterForReflection
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record GenAiSpanRef(String traceId, String spanId) {
    }

    @RegisterForReflection
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record ScoreCreateBody(String predictionId, String scorer, JsonNode value, String evaluationRunId) {
    }

    @RegisterForReflection
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record EvalResultsQueryBody(List<String> evaluationCallIds, List<String> evaluationRunIds, Boolean requireIntersection,
            Boolean includeRawDataRows, Boolean resolveRowRefs, Boolean includeRows, Boolean includeSummary,
            Boolean summaryRequireIntersection, Boolean includePredictAndScoreChildren, Boolean includeCosts,
            List<EvalResultsSortBy> sortBy, List<EvalResultsFilter> filters, String filterLogicOperator, Long limit,
            Long offset) {

        static EvalResultsQueryBody empty() {
            return new EvalResultsQueryBody(null, null, null, null, null, null, null, null, null, null, null, null, null,
                    null, null);
        }
    }

    /** {@code mode} {@code value} (default) or {@code difference}; {@code direction} {@code asc} or {@code desc}. */
    @RegisterForReflection
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record EvalResultsSortBy(String field, String direction, String evaluationCallId, String mode) {
    }

    @RegisterForReflection
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record EvalResultsFilter(String evaluationCallId, JsonNode query) {
    }

    /** The answer of every object create route; the ref field is named per kind, so it is added by the caller. */
    @RegisterForReflection
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record Published(String digest, String objectId, int versionIndex) {
    }

    @RegisterForReflection
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record Deleted(long numDeleted) {
    }

    @RegisterForReflection
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record Finished(boolean success) {
    }

    @RegisterForReflection
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record EvaluationRunCreated(String evaluationRunId) {
    }

    @RegisterForReflection
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record PredictionCreated(String predictionId) {
    }

    @RegisterForReflection
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record ScoreCreated(String scoreId) {
    }

    @RegisterForReflection
    @JsonInclude(JsonInclude.Include.ALWAYS)
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record EvaluationRunRead(String evaluationRunId, String evaluation, String model, String status, String startedAt,
            String finishedAt, JsonNode summary, String sourceEvaluationRunId) {
    }

    @RegisterForReflection
    @JsonInclude(JsonInclude.Include.ALWAYS)
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record PredictionRead(String predictionId, String model, JsonNode inputs, JsonNode output, String evaluationRunId,
            String svcUserId) {
    }

    @RegisterForReflection
    @JsonInclude(JsonInclude.Include.ALWAYS)
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record ScoreRead(String scoreId, String scorer, JsonNode value, String evaluationRunId, String svcUserId) {
    }
}
