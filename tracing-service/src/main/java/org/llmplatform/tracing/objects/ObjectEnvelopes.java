package org.llmplatform.tracing.objects;

import com.fasterxml.jackson.annotation.JsonAlias;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quarkus.runtime.annotations.RegisterForReflection;
import java.util.List;
import org.llmplatform.tracing.http.StrictRequest;

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
    record ObjReadReq(String projectId, String objectId, String digest, boolean metadataOnly) {
    }

    @RegisterForReflection
    record ObjReadRes(ObjectNode obj) {
    }

    @StrictRequest
    @RegisterForReflection
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record ObjQueryReq(String projectId, ObjectVersionFilter filter, Long limit, Long offset, List<SortByReq> sortBy,
            boolean metadataOnly, boolean includeStorageSize) {
    }

    @StrictRequest
    @RegisterForReflection
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record ObjectVersionFilter(List<String> baseObjectClasses, List<String> excludeBaseObjectClasses,
            List<String> leafObjectClasses, List<String> objectIds, Boolean isOp, Boolean latestOnly) {
    }

    @StrictRequest
    @RegisterForReflection
    record SortByReq(String field, String direction) {
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

    private ObjectEnvelopes() {
    }
}
