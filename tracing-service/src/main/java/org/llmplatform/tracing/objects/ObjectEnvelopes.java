package org.llmplatform.tracing.objects;

import com.fasterxml.jackson.annotation.JsonAlias;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quarkus.runtime.annotations.RegisterForReflection;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.llmplatform.support.error.ApiException;
import org.llmplatform.tracing.common.StrictRequest;
import org.llmplatform.tracing.query.Page;
import org.llmplatform.tracing.query.SortBy;

/** The request envelopes (strict) and insert payloads (lenient) of the object endpoints. */
final class ObjectEnvelopes {

    @StrictRequest
    @RegisterForReflection
    record ObjCreateReq(ObjSchemaForInsert obj) {
    }

    @RegisterForReflection
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record ObjSchemaForInsert(String projectId, String objectId, JsonNode val, String builtinObjectClass,
            String setBaseObjectClass, String expectedDigest, @JsonAlias("wb_user_id") String svcUserId) {
    }

    @RegisterForReflection
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record ObjCreateRes(String digest, String objectId) {
    }

    @StrictRequest
    @RegisterForReflection
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record ObjReadReq(String projectId, String objectId, String digest, boolean metadataOnly,
            boolean includeTagsAndAliases) {
    }

    @RegisterForReflection
    record ObjReadRes(ObjectNode obj) {
    }

    @StrictRequest
    @RegisterForReflection
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record ObjQueryReq(String projectId, ObjectVersionFilter filter, Long limit, Long offset, List<SortBy> sortBy,
            boolean metadataOnly, boolean includeStorageSize, boolean includeTagsAndAliases) {

        /** Checked in the reference's order: the sort keys, then the page. */
        ObjectQuery toQuery() {
            List<ObjectQuery.Sort> sorts = honouredSorts(sortBy);
            return new ObjectQuery(projectId, filter == null ? ObjectVersionFilter.NONE : filter, sorts,
                    Page.of(limit, offset), metadataOnly, includeStorageSize, includeTagsAndAliases);
        }

        /** The reference sorts objects only by {@code object_id} and {@code created_at}, ignoring other fields. */
        private static List<ObjectQuery.Sort> honouredSorts(List<SortBy> sortBy) {
            List<ObjectQuery.Sort> sorts = new ArrayList<>();
            if (sortBy == null) {
                return sorts;
            }
            for (SortBy sort : sortBy) {
                if (sort == null || sort.field() == null) {
                    throw ApiException.invalidField("missing", List.of("body", "sort_by", "field"), "Field required", null);
                }
                String direction = sort.direction() == null ? "asc" : sort.direction().toLowerCase(Locale.ROOT);
                if (!direction.equals("asc") && !direction.equals("desc")) {
                    throw ApiException.invalidField("literal_error", List.of("body", "sort_by", "direction"),
                            "Input should be 'asc' or 'desc'", sort.direction());
                }
                if (sort.field().equals("object_id") || sort.field().equals("created_at")) {
                    sorts.add(new ObjectQuery.Sort(sort.field(), direction.equals("desc")));
                }
            }
            return sorts;
        }
    }

    @RegisterForReflection
    record ObjQueryRes(List<ObjectNode> objs) {
    }

    @StrictRequest
    @RegisterForReflection
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record ObjDeleteReq(String projectId, String objectId, List<String> digests) {
    }

    @RegisterForReflection
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record ObjDeleteRes(int numDeleted) {
    }

    @StrictRequest
    @RegisterForReflection
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record ObjTagsBody(String projectId, List<String> tags) {
    }

    @StrictRequest
    @RegisterForReflection
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record ObjSetAliasesBody(String projectId, String digest, List<String> aliases) {
    }

    @StrictRequest
    @RegisterForReflection
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record ObjRemoveAliasesBody(String projectId, List<String> aliases) {
    }

    @RegisterForReflection
    record TagsListRes(List<String> tags) {
    }

    @RegisterForReflection
    record AliasesListRes(List<String> aliases) {
    }

    private ObjectEnvelopes() {
    }
}
