package org.llmplatform.tracing.calls;

import com.fasterxml.jackson.annotation.JsonAlias;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import io.quarkus.runtime.annotations.RegisterForReflection;
import java.util.List;
import org.llmplatform.tracing.common.StrictRequest;

/** The request and response envelopes of the call endpoints, as the reference names them. */
final class CallEnvelopes {

    @StrictRequest
    @RegisterForReflection
    record CallStartReq(StartedCall start) {
    }

    @StrictRequest
    @RegisterForReflection
    record CallEndReq(EndedCall end) {
    }

    @StrictRequest
    @RegisterForReflection
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record CallReadReq(String projectId, String id, boolean includeCosts, boolean includeStorageSize,
            boolean includeTotalStorageSize) {
    }

    @RegisterForReflection
    @JsonInclude(JsonInclude.Include.ALWAYS)
    record CallReadRes(CallSchema call) {
    }

    @StrictRequest
    @RegisterForReflection
    record CallCreateBatchReq(List<CallBatchItem> batch) {
    }

    /** {@code mode} is "start" or "end"; without it the part the request carries decides. */
    @StrictRequest
    @RegisterForReflection
    record CallBatchItem(String mode, CallBatchItemReq req) {
    }

    @StrictRequest
    @RegisterForReflection
    record CallBatchItemReq(StartedCall start, EndedCall end) {
    }

    @RegisterForReflection
    record CallCreateBatchRes(List<Object> res) {
    }

    /** {@code POST /v2/{entity}/{project}/calls/complete}; the answer is {@code {}}. */
    @StrictRequest
    @RegisterForReflection
    record CallsUpsertCompleteReq(List<CompletedCall> batch) {
    }

    /** {@code svc_user_id} is accepted and ignored: the caller is the user. */
    @StrictRequest
    @RegisterForReflection
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record CallUpdateReq(String projectId, String callId, String displayName,
            @JsonAlias("wb_user_id") String svcUserId) {
    }

    @StrictRequest
    @RegisterForReflection
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record CallsDeleteReq(String projectId, List<String> callIds, @JsonAlias("wb_user_id") String svcUserId) {
    }

    @RegisterForReflection
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record CallsDeleteRes(long numDeleted) {
    }

    private CallEnvelopes() {
    }
}
