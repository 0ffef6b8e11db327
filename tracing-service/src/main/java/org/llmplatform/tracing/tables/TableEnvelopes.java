package org.llmplatform.tracing.tables;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import io.quarkus.runtime.annotations.RegisterForReflection;
import java.util.List;
import org.llmplatform.support.error.ApiException;
import org.llmplatform.tracing.common.StrictRequest;
import org.llmplatform.tracing.query.SortBy;
import org.llmplatform.tracing.tables.TableService.RowSchema;
import org.llmplatform.tracing.tables.TableService.TableEdit;
import org.llmplatform.tracing.tables.TableService.TableQuery;
import org.llmplatform.tracing.tables.TableService.TableStatsSchema;

/** The request envelopes (strict) and insert payloads (lenient) of the table endpoints. */
final class TableEnvelopes {

    @StrictRequest
    @RegisterForReflection
    record TableCreateReq(TableSchemaForInsert table) {
    }

    @RegisterForReflection
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record TableSchemaForInsert(String projectId, List<JsonNode> rows) {
    }

    /** {@code TableCreateFromDigestsReq}: a table of rows already stored, by digest. */
    @StrictRequest
    @RegisterForReflection
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record TableCreateFromDigestsReq(String projectId, List<String> rowDigests, String expectedDigest) {
    }

    @RegisterForReflection
    record TableCreateFromDigestsRes(String digest) {
    }

    @StrictRequest
    @RegisterForReflection
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record TableUpdateReq(String projectId, String baseDigest, List<TableUpdateSpec> updates) {

        List<TableEdit> edits() {
            if (updates == null) {
                return null;
            }
            return java.util.stream.IntStream.range(0, updates.size()).mapToObj(i -> {
                TableUpdateSpec spec = updates.get(i);
                return spec == null ? null : spec.toEdit(i);
            }).toList();
        }
    }

    @StrictRequest
    @RegisterForReflection
    record TableUpdateSpec(RowSpec append, IndexSpec pop, IndexedRowSpec insert) {

        TableEdit toEdit(int at) {
            int kinds = (append != null ? 1 : 0) + (pop != null ? 1 : 0) + (insert != null ? 1 : 0);
            if (pop != null && pop.index() == null) {
                throw ApiException.invalidField("missing", List.of("body", "updates", at, "pop", "index"), "Field required", null);
            }
            if (insert != null && insert.index() == null) {
                throw ApiException.invalidField("missing", List.of("body", "updates", at, "insert", "index"), "Field required", null);
            }
            return new TableEdit(append == null ? null : append.row(), append != null, pop == null ? null : pop.index(),
                    insert == null ? null : insert.index(), insert == null ? null : insert.row(), kinds);
        }
    }

    @RegisterForReflection
    record RowSpec(JsonNode row) {
    }

    @RegisterForReflection
    record IndexSpec(Integer index) {
    }

    @RegisterForReflection
    record IndexedRowSpec(Integer index, JsonNode row) {
    }

    @StrictRequest
    @RegisterForReflection
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record TableQueryReq(String projectId, String digest, TableRowFilter filter, Long limit, Long offset,
            List<SortBy> sortBy) {

        TableQuery toQuery() {
            return new TableQuery(projectId, digest, filter == null ? null : filter.rowDigests(), sortBy, limit, offset);
        }
    }

    @StrictRequest
    @RegisterForReflection
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record TableRowFilter(List<String> rowDigests) {
    }

    @RegisterForReflection
    record TableQueryRes(List<RowSchema> rows) {
    }

    @StrictRequest
    @RegisterForReflection
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record TableQueryStatsReq(String projectId, String digest) {
    }

    @RegisterForReflection
    record TableQueryStatsRes(long count) {
    }

    @StrictRequest
    @RegisterForReflection
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record TableQueryStatsBatchReq(String projectId, List<String> digests, boolean includeStorageSize) {
    }

    @RegisterForReflection
    record TableQueryStatsBatchRes(List<TableStatsSchema> tables) {
    }

    private TableEnvelopes() {
    }
}
